/** Percent-decodes a path segment or query part; text that is not valid encoding stays as it is. */
export function safeDecode(text: string): string {
  if (!text.includes('%')) {
    return text;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
