/** Counts requests per organization in fixed windows, each named by its start (unix seconds). */
export interface WindowCounter {
  /**
   * Counts one request in the organization's current window and returns its place there
   * (1 for the first). Places are unique within a window across every process sharing the
   * count; a place above `limit` means the request is over the limit.
   */
  increment(organizationId: string, windowStart: number, limit: number): Promise<number>;
}
