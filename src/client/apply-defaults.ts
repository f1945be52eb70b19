/**
 * Fills the `default` of every top-level property of an elicitation's `requestedSchema` that the user left out
 * of an accepted answer. Clients that declare `elicitation.form.applyDefaults` promise to do this (SEP-1034):
 * the server then never sees a half-filled form.
 */
export function applyDefaults(
  schema: unknown,
  content: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content }
  const properties = (schema as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties
  if (properties) {
    for (const [key, property] of Object.entries(properties)) {
      if (out[key] === undefined && property && property.default !== undefined) out[key] = property.default
    }
  }
  return out
}

/**
 * One round's answers, with schema defaults filled into every accepted form elicitation. A URL-mode answer is left
 * as it is: its `content` is omitted for out-of-band answers (2025-11-25 ElicitResult).
 */
export function withDefaults(
  requests: Record<string, { method: string; params?: Record<string, unknown> }>,
  responses: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...responses }
  for (const [key, request] of Object.entries(requests)) {
    const answer = out[key] as { action?: string; content?: Record<string, unknown> } | undefined
    if (request.method === 'elicitation/create' && request.params?.mode !== 'url' && answer?.action === 'accept') {
      out[key] = { ...answer, content: applyDefaults(request.params?.requestedSchema, answer.content) }
    }
  }
  return out
}
