export declare function interleave<K extends string>(
  contenders: Record<K, () => Promise<unknown>>,
  options: { rounds: number; perRound: number; block: number },
): Promise<Record<K, { times: number[]; roundMedians: number[] }>>
