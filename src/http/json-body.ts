import type { FastifyInstance } from "fastify";
import { InvalidJsonError } from "./validation.js";

/**
 * JSON bodies are parsed here so a syntax error becomes a FastAPI-shaped 422 that says where
 * (`loc: ["body", position]`), and an empty body reads as "missing".
 */
export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit },
    (_request, body: string, done) => {
      if (body.trim() === "") {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(body));
      } catch (error) {
        const message = (error as Error).message;
        const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
        done(new InvalidJsonError(message, position), undefined);
      }
    },
  );
}
