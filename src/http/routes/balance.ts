import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import { nanosToUsd } from "../../util/money.js";
import type { App } from "../app-instance.js";
import { principalOf } from "../auth.js";
import { withErrors } from "../schemas/common.js";
import { BalanceSchema } from "../schemas/models.js";

export function registerBalanceRoutes(app: App, services: Services): void {
  app.get(
    "/balance",
    {
      schema: {
        summary: "Credit balance of the caller's organization",
        tags: ["billing"],
        response: withErrors({ 200: Type.Ref(BalanceSchema) }),
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request);
      return { balance_dollars: nanosToUsd(await services.ledger.balance(organizationId)) };
    },
  );
}
