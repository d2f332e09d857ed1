// Vary is built up by several onSend hooks (CORS: Origin; compression: Accept-Encoding), and
// reply.header() replaces a value: each hook adds its field to what is there instead.

/** Adds `field` to a Vary header value without repeating it (case-insensitive; `*` covers all). */
export function varyWith(current: string | number | string[] | undefined, field: string): string {
  if (current === undefined || current === '') return field;
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  return tokens.includes(field.toLowerCase()) || tokens.includes('*') ? value : `${value}, ${field}`;
}
