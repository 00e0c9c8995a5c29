import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats, { type FormatName } from "ajv-formats";
import {
  loadVendoredDocument,
  type OpenApiDocument,
} from "../../../scripts/openai-openapi/document.js";
import { derivedSchemas } from "./derived-schemas.js";
import { closedObject, prepareSchemas } from "./schema-rules.js";
import { type Extension, SIBYL_EXTENSIONS, withExtensions } from "./sibyl-extensions.js";
import { withErrata } from "./spec-errata.js";

const DOCUMENT_ID = "openai-openapi";
/** Errors whose params name what was wrong: the values allowed, the property not allowed. */
const SHOWN_PARAMS = new Set(["enum", "unevaluatedProperties", "additionalProperties"]);
/** Formats ajv-formats checks; any other format the description uses is documentation only. */
const CHECKED_FORMATS = new Set<FormatName>(["date", "date-time", "uri", "email", "uuid"]);

/** OpenAI's component schemas, compiled on first use, and checks of bodies against them. */
export class OpenAISchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  /**
   * `errata: false` reads the description exactly as published (see spec-errata.ts);
   * `derived: false` adds no derived shapes and `extensions` replaces Sibyl's (for descriptions
   * other than OpenAI's).
   */
  constructor(
    readonly document: OpenApiDocument,
    options: { errata?: boolean; derived?: boolean; extensions?: readonly Extension[] } = {},
  ) {
    addFormats.default(this.ajv, { formats: [...CHECKED_FORMATS] });
    for (const format of formatsIn(document)) {
      if (!CHECKED_FORMATS.has(format as FormatName)) this.ajv.addFormat(format, true);
    }
    const published = document.components.schemas;
    const read = withExtensions(
      options.errata === false ? published : withErrata(published),
      options.extensions ?? SIBYL_EXTENSIONS,
    );
    const derived = options.derived === false ? {} : derivedSchemas(read);
    const schemas = prepareSchemas({ ...read, ...derived });
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  }

  /** Why the body does not match the component; empty when it does. */
  problems(component: string, body: unknown): string[] {
    const validate = this.validator(component);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${error.instancePath || "(body)"} ${error.message ?? error.keyword}${
          SHOWN_PARAMS.has(error.keyword) ? ` ${JSON.stringify(error.params)}` : ""
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
      // Checked whole, the component is a place: closed like every place inside it.
      validate = this.ajv.compile(
        closedObject({
          $ref: `${DOCUMENT_ID}#/components/schemas/${encodeURIComponent(component)}`,
        }),
      );
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
