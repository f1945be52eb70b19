export declare const TOOL_COUNT: number
export declare const PAGE_SIZE: number
export declare function buildPages(total?: number, size?: number): string[]
export declare function pageIndex(cursor: unknown, count: number): number
