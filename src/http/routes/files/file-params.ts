import { Type } from "@sinclair/typebox";

/** The path parameters of the routes about one file. */
export const FileParams = Type.Object({ file_id: Type.String({ minLength: 1 }) });
