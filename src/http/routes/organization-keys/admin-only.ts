import { Type } from "@sinclair/typebox";
import { ErrorResponse } from "../../schemas/common.js";

/** Every key route says so in its description. */
export const ADMIN_ONLY = "Needs an `admin` key: `inference` keys get 403.";

export const forbidden = { 403: Type.Ref(ErrorResponse) };
