import { escapeXml } from "./escape.js";

export const number = (value: number | null | undefined, digits = 4): string =>
  value === null || value === undefined ? "–" : value.toFixed(digits);

export const interval = (ci: [number, number] | null | undefined, digits = 4): string =>
  ci ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : "–";

export const percent = (share: number | null | undefined): string =>
  share === null || share === undefined ? "–" : `${(share * 100).toFixed(1)}%`;

export function table(headers: string[], rows: string[][], id?: string): string {
  const head = headers.map((header) => `<th>${escapeXml(header)}</th>`).join("");
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeXml(cell)}</td>`).join("")}</tr>`)
    .join("\n");
  const attribute = id ? ` id="${escapeXml(id)}"` : "";
  return `<table${attribute}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
