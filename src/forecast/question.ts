/** The text to classify and forecast: the content of the last user message ("" when none). */
export function questionText(messages: { role: string; content: string }[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return message.content;
  }
  return "";
}
