export declare function renderTable(results: Record<string, unknown>): { markdown: string; notes: string[]; failures: string[] }
