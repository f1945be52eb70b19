export interface Summary {
  median: number
  min: number
  max: number
  n: number
}
export declare function summarize(values: number[]): Summary
export declare function median(values: number[]): number
export declare function formatSummary(summary: Pick<Summary, 'median' | 'min' | 'max'>, digits?: number, unit?: string): string
export declare function since(start: number): number
