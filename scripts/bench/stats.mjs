// Summaries and the way figures are printed: every figure is a median with its min–max.

/** `{ median, min, max, n }` of a list of numbers. */
export function summarize(values) {
  if (values.length === 0) throw new Error('nothing to summarize')
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  return { median, min: sorted[0], max: sorted.at(-1), n: sorted.length }
}

export const median = (values) => summarize(values).median

/** "1.04 (1.01–1.09)", or just "3" when every sample agreed. */
export function formatSummary({ median, min, max }, digits = 2, unit = '') {
  const f = (x) => x.toFixed(digits)
  return min === max ? `${f(median)}${unit}` : `${f(median)}${unit} (${f(min)}–${f(max)})`
}

/** Milliseconds elapsed since `start` (a performance.now() value). */
export const since = (start) => performance.now() - start
