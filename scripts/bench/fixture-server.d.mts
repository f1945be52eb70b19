export declare function startFixture(options?: { pages?: string[] }): Promise<{ url: string; close(): Promise<void> }>
