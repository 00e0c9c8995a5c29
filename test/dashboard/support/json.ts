/** The error object every error answer carries. */
export interface ErrorAnswer {
  error: { message: string; type: string; code: string | null };
}

/** A response's JSON body, read as the shape the test expects. */
export const jsonOf = async <T = ErrorAnswer>(response: Response): Promise<T> =>
  (await response.json()) as T;
