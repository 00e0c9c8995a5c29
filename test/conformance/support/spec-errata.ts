import type { SpecSchema } from "../../../scripts/openai-openapi/document.js";

/**
 * Places where OpenAI's description contradicts what OpenAI's own servers send, and Sibyl sends
 * what the servers do. Each is allowed here by name only; a test checks that the description
 * still says otherwise, so an entry goes once OpenAI corrects it.
 */
export interface Erratum {
  component: string;
  properties: string[];
  why: string;
}

export const SPEC_ERRATA: readonly Erratum[] = [
  {
    component: "ListFilesResponse",
    properties: ["first_id", "last_id"],
    why: "required strings, but an empty page has no first or last id: OpenAI's servers send null there, as for every other list, and the SDKs' pages never read them",
  },
];

/** The schemas with each erratum's properties made nullable. */
export function withErrata(schemas: Record<string, SpecSchema>): Record<string, SpecSchema> {
  const patched = { ...schemas };
  for (const { component, properties } of SPEC_ERRATA) {
    const schema = structuredClone(schemas[component]);
    const defined = schema?.properties as Record<string, unknown> | undefined;
    for (const name of properties) {
      if (!defined || !(name in defined)) {
        throw new Error(`${component}.${name} is gone from OpenAI's description: drop the erratum`);
      }
      defined[name] = { anyOf: [defined[name], { type: "null" }] };
    }
    if (schema) patched[component] = schema;
  }
  return patched;
}
