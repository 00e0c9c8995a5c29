/**
 * A SQLite database that cannot be opened where the configuration puts it (a folder that cannot
 * be created or written, a file that is not a database): a fact about the deployment, told in
 * one line that names the file and the settings that move it.
 */
export class DatabaseOpenError extends Error {
  constructor(file: string, cause: unknown) {
    super(
      `cannot open the SQLite database ${file}: ${reasonOf(cause)}. Point database.url in the configuration (or SIBYL_DATA_DIR) at a file in a folder this user can write`,
      { cause },
    );
  }
}

function reasonOf(cause: unknown): string {
  const code = (cause as { code?: unknown }).code;
  // mkdir's own words ("EEXIST: file already exists, mkdir …") hide what is wrong.
  if (code === "EEXIST" || code === "ENOTDIR") return "a file stands where its folder should be";
  return cause instanceof Error ? cause.message : String(cause);
}
