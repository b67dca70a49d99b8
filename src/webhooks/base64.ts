/**
 * Decodes standard base64 with the web's `atob` (ASCII whitespace ignored, padding optional), so
 * the webhook toolkit needs no `Buffer`. Undefined when the text is not base64: callers turn that
 * into their own refusal.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
