import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats, { type FormatName } from "ajv-formats";
import {
  loadVendoredDocument,
  type OpenApiDocument,
} from "../../../scripts/openai-openapi/document.js";
import { derivedSchemas } from "./derived-schemas.js";
import { prepareSchemas } from "./schema-rules.js";
import { EXTENSION_FIELDS } from "./sibyl-extensions.js";
import { withErrata } from "./spec-errata.js";

const DOCUMENT_ID = "openai-openapi";
/** Formats ajv-formats checks; any other format the description uses is documentation only. */
const CHECKED_FORMATS = new Set<FormatName>(["date", "date-time", "uri", "email", "uuid"]);

/** OpenAI's component schemas, compiled on first use, and checks of bodies against them. */
export class OpenAISchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  /**
   * `errata: false` reads the description exactly as published (see spec-errata.ts);
   * `derived: false` adds no derived shapes (for descriptions other than OpenAI's).
   */
  constructor(
    readonly document: OpenApiDocument,
    options: { errata?: boolean; derived?: boolean } = {},
  ) {
    addFormats.default(this.ajv, { formats: [...CHECKED_FORMATS] });
    for (const format of formatsIn(document)) {
      if (!CHECKED_FORMATS.has(format as FormatName)) this.ajv.addFormat(format, true);
    }
    const published = document.components.schemas;
    const read = options.errata === false ? published : withErrata(published);
    const derived = options.derived === false ? {} : derivedSchemas(published);
    const schemas = prepareSchemas({ ...read, ...derived }, EXTENSION_FIELDS);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  }

  /** Why the body does not match the component; empty when it does. */
  problems(component: string, body: unknown): string[] {
    const validate = this.validator(component);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${error.instancePath || "(body)"} ${error.message ?? error.keyword}${
          error.keyword === "enum" ? ` ${JSON.stringify(error.params)}` : ""
        } [${error.schemaPath}]`,
    );
  }

  /** Throws, naming the first problems and the body, unless the body matches the component. */
  assertConforms(component: string, body: unknown, what = component): void {
    const problems = this.problems(component, body);
    if (problems.length === 0) return;
    const shown = problems.slice(0, 12).join("\n  ");
    const more = problems.length > 12 ? `\n  … and ${problems.length - 12} more` : "";
    throw new Error(
      `${what} does not match OpenAI's ${component}:\n  ${shown}${more}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }

  private validator(component: string): ValidateFunction {
    let validate = this.validators.get(component);
    if (!validate) {
      validate = this.ajv.compile({
        $ref: `${DOCUMENT_ID}#/components/schemas/${encodeURIComponent(component)}`,
      });
      this.validators.set(component, validate);
    }
    return validate;
  }
}

function formatsIn(document: OpenApiDocument): Set<string> {
  const formats = new Set<string>();
  JSON.stringify(document.components, (key, value: unknown) => {
    if (key === "format" && typeof value === "string") formats.add(value);
    return value;
  });
  return formats;
}

let vendored: OpenAISchemas | undefined;

/** The vendored description's schemas, loaded once per test file. */
export function openAISchemas(): OpenAISchemas {
  vendored ??= new OpenAISchemas(loadVendoredDocument());
  return vendored;
}
