import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Temporary directories that one test file creates and removes when it is done. */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(label = "sibyl-foundation-"): string {
    const dir = mkdtempSync(path.join(tmpdir(), label));
    this.dirs.push(dir);
    return dir;
  }

  removeAll(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}
