import { Type } from "@sinclair/typebox";
import { Nullable } from "../schemas/common.js";

/** OpenAI's Costs API shapes (`GET /v1/organization/costs`), with Sibyl's groups added. */

const CostResultSchema = Type.Object({
  object: Type.Literal("organization.costs.result"),
  amount: Type.Object({
    value: Type.Number({ minimum: 0, description: "Dollars charged" }),
    currency: Type.Literal("usd"),
  }),
  line_item: Nullable(
    Type.String({
      description:
        "Set when grouped by line item: the model a charge paid for, or `research:<source>`",
    }),
  ),
  project_id: Type.Null({ description: "Always null: Sibyl has no projects" }),
  model: Nullable(Type.String({ description: "Set when grouped by model" })),
  api_key_id: Nullable(
    Type.String({ description: "Set when grouped by key (null there for older batches' lines)" }),
  ),
});

export const OrganizationCostsPageSchema = Type.Object(
  {
    object: Type.Literal("page"),
    data: Type.Array(
      Type.Object({
        object: Type.Literal("bucket"),
        start_time: Type.Integer(),
        end_time: Type.Integer(),
        results: Type.Array(CostResultSchema),
      }),
    ),
    has_more: Type.Boolean(),
    next_page: Nullable(Type.String()),
  },
  { $id: "OrganizationCostsPage" },
);

export const CostsQuerySchema = Type.Object({
  start_time: Type.Integer({ minimum: 0, description: "Unix seconds, inclusive" }),
  end_time: Type.Optional(
    Type.Integer({ minimum: 0, description: "Unix seconds, exclusive; default now" }),
  ),
  bucket_width: Type.Literal("1d", { default: "1d" }),
  group_by: Type.Optional(
    Type.Array(
      Type.Union([Type.Literal("line_item"), Type.Literal("model"), Type.Literal("api_key_id")]),
      {
        maxItems: 3,
        description: "`line_item` alone, or `model` and `api_key_id` in any combination",
      },
    ),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 180, default: 7, description: "Days per page" }),
  page: Type.Optional(Type.String({ description: "`next_page` of the previous page" })),
});
