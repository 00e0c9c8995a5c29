import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

export interface OpenApiMediaType {
  schema?: unknown;
}

export interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, OpenApiMediaType> };
  responses: Record<string, { content?: Record<string, OpenApiMediaType> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
}

export interface ObservedResponse {
  status: number;
  contentType: string | null;
  /** Parsed JSON when the response is JSON. */
  body: unknown;
}

/** The id under which the document is registered, so its `#/components/…` refs resolve. */
const DOCUMENT_ID = "openapi.json";

/** What a running server publishes at /openapi.json, and checks of responses against it. */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  }

  static async fetch(baseUrl: string): Promise<OpenApiContract> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
    return new OpenApiContract((await response.json()) as OpenApiDocument);
  }

  /** Every documented `METHOD /path` pair, methods in upper case. */
  operations(): { method: string; path: string }[] {
    return Object.entries(this.document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
    );
  }

  operation(method: string, path: string): OpenApiOperation | undefined {
    return this.document.paths[path]?.[method.toLowerCase()];
  }

  /** The documented path a concrete one falls under: `/v1/files/f1` → `/v1/files/{file_id}`. */
  templateOf(method: string, path: string): string | undefined {
    const segments = path.split("/");
    return Object.keys(this.document.paths).find((template) => {
      if (!this.operation(method, template)) return false;
      const parts = template.split("/");
      return (
        parts.length === segments.length &&
        parts.every((part, index) =>
          /^\{\w+\}$/.test(part) ? segments[index] !== "" : part === segments[index],
        )
      );
    });
  }

  /** A component schema by name (`ChatCompletionRequest`), with `$ref`s left in place. */
  component(name: string): unknown {
    return this.document.components.schemas[name];
  }

  /** Follows a `#/components/schemas/…` reference; anything else is returned as it is. */
  deref(schema: unknown): unknown {
    const ref = (schema as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== "string") return schema;
    const name = ref.replace("#/components/schemas/", "");
    return this.deref(this.component(name));
  }

  /** Why a response does not match what its operation documents; empty when it does. */
  responseProblems(method: string, path: string, response: ObservedResponse): string[] {
    const operation = this.operation(method, path);
    if (!operation) return [`${method} ${path} is not in /openapi.json`];
    const documented = operation.responses[String(response.status)];
    if (!documented) return [`status ${response.status} is not documented for ${method} ${path}`];
    if (!documented.content) return [];
    const mediaType = (response.contentType ?? "").split(";")[0]?.trim() ?? "";
    const media = documented.content[mediaType];
    if (!media) {
      const listed = Object.keys(documented.content).join(", ");
      return [`content-type '${mediaType}' is not documented (documented: ${listed})`];
    }
    if (mediaType !== "application/json" || media.schema === undefined) return [];
    return this.schemaProblems(media.schema, response.body);
  }

  /** Why a value does not match a JSON Schema (which may use the document's refs). */
  schemaProblems(schema: unknown, value: unknown): string[] {
    const validate = this.validatorFor(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || "(body)"} ${error.message ?? error.keyword}`,
    );
  }

  private validatorFor(schema: unknown): ValidateFunction {
    const text = JSON.stringify(schema);
    let validate = this.validators.get(text);
    if (!validate) {
      // Refs inside the operation are document-relative; point them at the registered document.
      const anchored = text.replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`);
      validate = this.ajv.compile(JSON.parse(anchored) as object);
      this.validators.set(text, validate);
    }
    return validate;
  }
}
