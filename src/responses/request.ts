import type { ChatCompletionBody, ChatMessageBody } from "../completions/schema.js";
import { invalidRequest } from "../errors.js";
import type { ResponseCreateBody, ResponseInputItemBody } from "./schema.js";

interface Unsupported {
  param: string;
  used(body: ResponseCreateBody): boolean;
  message: string;
}

/** Features of the Responses API that Sibyl does not offer: asking for one is a clear 400. */
const UNSUPPORTED: Unsupported[] = [
  {
    param: "tools",
    used: (body) => (body.tools?.length ?? 0) > 0,
    message: "tools are not supported: Sibyl's responses are text only.",
  },
  {
    param: "tool_choice",
    used: (body) =>
      body.tool_choice != null &&
      (typeof body.tool_choice !== "string" || !["none", "auto"].includes(body.tool_choice)),
    message: "tool_choice may only be none or auto: Sibyl's responses are text only.",
  },
  {
    param: "background",
    used: (body) => body.background === true,
    message: "background mode is not supported: responses are not stored to be polled later.",
  },
  {
    param: "previous_response_id",
    used: (body) => body.previous_response_id != null,
    message:
      "previous_response_id is not supported: Sibyl stores no responses; send the whole conversation as input.",
  },
  {
    param: "conversation",
    used: (body) => body.conversation != null,
    message:
      "conversation is not supported: Sibyl stores no conversations; send the whole conversation as input.",
  },
  {
    param: "prompt",
    used: (body) => body.prompt != null,
    message: "prompt templates are not supported; send the prompt text as input.",
  },
  {
    param: "text.format",
    used: (body) => body.text?.format != null && body.text.format.type !== "text",
    message: "text.format may only be text: structured output formats are not supported.",
  },
  {
    param: "text.verbosity",
    used: (body) => body.text?.verbosity != null && body.text.verbosity !== "medium",
    message: "text.verbosity cannot be changed: only medium is supported.",
  },
  {
    param: "include",
    used: (body) => (body.include?.length ?? 0) > 0,
    message: "include is not supported: responses carry no extra output data.",
  },
  {
    param: "top_logprobs",
    used: (body) => (body.top_logprobs ?? 0) > 0,
    message: "top_logprobs is not supported: responses carry no log probabilities.",
  },
  {
    param: "truncation",
    used: (body) => body.truncation === "auto",
    message:
      "truncation auto is not supported: an input longer than the model's context is refused.",
  },
];

/** Refuses what Sibyl cannot do, then builds the chat completion that does the work. */
export function chatRequestFor(body: ResponseCreateBody, stream: boolean): ChatCompletionBody {
  for (const feature of UNSUPPORTED) {
    if (feature.used(body)) {
      throw invalidRequest(feature.message, "unsupported_parameter", feature.param);
    }
  }
  const messages: ChatMessageBody[] = [];
  if (body.instructions != null) messages.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") messages.push({ role: "user", content: body.input });
  else messages.push(...body.input.map(chatMessageFor));
  return {
    model: body.model,
    messages,
    ...(body.temperature != null ? { temperature: body.temperature } : {}),
    ...(body.top_p != null ? { top_p: body.top_p } : {}),
    ...(body.max_output_tokens != null ? { max_tokens: body.max_output_tokens } : {}),
    ...(body.reasoning?.effort != null ? { reasoning_effort: body.reasoning.effort } : {}),
    ...(body.answer_type != null ? { answer_type: body.answer_type } : {}),
    ...(body.prediction_date != null ? { prediction_date: body.prediction_date } : {}),
    ...(body.research != null ? { research: body.research } : {}),
    ...(body.ensemble != null ? { ensemble: body.ensemble } : {}),
    ...(body.question_id != null ? { question_id: body.question_id } : {}),
    ...(body.calibration != null ? { calibration: body.calibration } : {}),
    // The usage chunk carries the costs that response.completed reports.
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

const TEXT_PARTS = new Set(["input_text", "output_text"]);

function chatMessageFor(item: ResponseInputItemBody, index: number): ChatMessageBody {
  const at = `input[${index}]`;
  if (item.type !== undefined && item.type !== "message") {
    const hint =
      item.type === "item_reference"
        ? " Sibyl stores no responses to refer to: send the message itself (with the AI SDK, set providerOptions.openai.store to false)."
        : "";
    throw invalidRequest(
      `${at} is a ${item.type} item; only message items with text content are supported.${hint}`,
      "unsupported_input_item",
      `${at}.type`,
    );
  }
  if (item.role === undefined) {
    throw invalidRequest(`${at} has no role.`, "missing_role", `${at}.role`);
  }
  if (item.content === undefined) {
    throw invalidRequest(`${at} has no content.`, "missing_content", `${at}.content`);
  }
  const role = item.role === "developer" ? "system" : item.role;
  if (typeof item.content === "string") return { role, content: item.content };
  const texts = item.content.map((part, partIndex) => {
    const where = `${at}.content[${partIndex}]`;
    if (!TEXT_PARTS.has(part.type)) {
      throw invalidRequest(
        `${where} is ${part.type} content; only text (input_text, output_text) is supported.`,
        "unsupported_content_type",
        where,
      );
    }
    if (part.text === undefined) {
      throw invalidRequest(`${where} has no text.`, "missing_text", `${where}.text`);
    }
    return part.text;
  });
  return { role, content: texts.join("\n\n") };
}

/** Chat request fields that errors may name, as the Responses request calls them. */
const RESPONSE_PARAMS: Record<string, string> = {
  messages: "input",
  max_tokens: "max_output_tokens",
  max_completion_tokens: "max_output_tokens",
  reasoning_effort: "reasoning.effort",
};

/** The Responses name of a chat request field an error names. */
export function responseParam(param: string | null): string | null {
  return param === null ? null : (RESPONSE_PARAMS[param] ?? param);
}
