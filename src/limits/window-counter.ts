/** Counts requests per organization in fixed windows, each named by its start (unix seconds). */
export interface WindowCounter {
  /** Adds one request to the organization's current window and returns the window's count. */
  increment(organizationId: string, windowStart: number): Promise<number>;
}
