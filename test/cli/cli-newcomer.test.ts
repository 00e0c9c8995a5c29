import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, completion, runCli, singleJson, spawnCli } from "../support/cli.js";
import { runInProcess } from "../support/cli-in-process.js";
import { freePort } from "../support/free-port.js";
import { request } from "../support/http.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  temp.removeAll();
});

const GROUPS: Record<string, string[]> = {
  orgs: ["create", "list"],
  keys: ["create", "list", "revoke"],
  credits: ["add"],
  dashboard: ["link"],
  news: ["import"],
  eval: ["run", "report"],
  payments: ["reconcile"],
  questions: ["resolve"],
};
const COMMANDS = [
  ["serve"],
  ["worker"],
  ["migrate"],
  ...Object.entries(GROUPS).flatMap(([group, names]) => names.map((name) => [group, name])),
];

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

/** Lines of stdout as the server writes them, until `match` is found or the process ends. */
function waitForOutput(child: ChildProcess, match: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const line = seen.split("\n").find((candidate) => match.test(candidate));
      if (line !== undefined) {
        child.stdout?.off("data", onData);
        resolve(line);
      }
    };
    child.stdout?.on("data", onData);
    child.once("close", () => reject(new Error(`exited before printing ${match}: ${seen}`)));
  });
}

describe("sibyl serve start-up failures", () => {
  it.each([
    ["--port", (port: number) => ({ args: ["serve", "--port", String(port)], env: {} })],
    ["SIBYL_PORT", (port: number) => ({ args: ["serve"], env: { SIBYL_PORT: String(port) } })],
  ])("exits 1 with one line naming a port in use (set by %s)", async (_label, setup) => {
    const cwd = temp.make("sibyl-port-taken-");
    const { server, port } = await holdPort();
    try {
      const { args, env } = setup(port);
      const started = Date.now();
      const result = await runCli(args, { cwd, env });
      expect(result.code).toBe(1);
      expect(Date.now() - started).toBeLessThan(30_000);
      const errors = result.stderr.split("\n").filter((line) => line.startsWith("sibyl: port"));
      expect(errors).toEqual([
        `sibyl: port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another port with --port N or SIBYL_PORT=N (server.port in the configuration)`,
      ]);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      server.close();
    }
  });

  it("exits 1 naming a host that is not this machine's", async () => {
    const cwd = temp.make("sibyl-bad-host-");
    const port = await freePort();
    const result = await runCli(["serve", "--port", String(port), "--host", "192.0.2.1"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot listen on host "192.0.2.1"');
    expect(result.stderr).toContain("--host");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 1 with one line naming a database it cannot open and the settings that move it", async () => {
    const [home, instance] = [temp.make("sibyl-data-file-"), temp.make("sibyl-not-a-database-")];
    const notAFolder = path.join(home, "data");
    writeFileSync(notAFolder, "a file where the data folder should be\n");
    const notADatabase = path.join(instance, "notes.db");
    writeFileSync(notADatabase, "plain text, not SQLite\n");
    writeFileSync(path.join(instance, "sibyl.yaml"), "database: { url: 'sqlite:notes.db' }\n");
    const port = await freePort();
    const [command, server] = await Promise.all([
      runCli(["orgs", "list"], { cwd: home, env: { SIBYL_DATA_DIR: notAFolder } }),
      runCli(["serve", "--port", String(port), "--config", "sibyl.yaml"], { cwd: instance }),
    ]);
    for (const [result, file, reason] of [
      [command, path.join(notAFolder, "sibyl.db"), "a file stands where its folder should be"],
      [server, notADatabase, "file is not a database"],
    ] as const) {
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          new RegExp(
            `^sibyl: cannot open the SQLite database ${file}: .*${reason}.*SIBYL_DATA_DIR`,
          ),
        ),
      ]);
    }
  }, 60_000);
});

describe("sibyl help", () => {
  it("prints the version, and names a mistyped option given without a command", async () => {
    const cwd = temp.make("sibyl-version-");
    const [result, typo] = await Promise.all([
      runCli(["--version"], { cwd }),
      runCli(["--verison"], { cwd }),
    ]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^sibyl \d+\.\d+\.\d+\n$/);
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    expect(typo.stderr).toBe(
      'sibyl: unknown option --verison (did you mean "--version"?): without a command, sibyl takes only --help, --version and --config.\nRun "sibyl --help" for its usage and an example.\n',
    );
  });

  it("prints a command's own help and a group's commands from a real process", async () => {
    const cwd = temp.make("sibyl-help-process-");
    const [help, group] = await Promise.all([
      runCli(["keys", "create", "--help"], { cwd }),
      runCli(["keys"], { cwd }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: sibyl keys create --org ORG_ID \[--scope admin\|inference\]/,
    );
    expect(help.stdout).toContain("Example:\n  sibyl keys create --org");
    expect(group.code).toBe(0);
    expect(group.stdout).toContain("keys revoke");
    expect(existsSync(path.join(cwd, "sibyl.db"))).toBe(false);
  });

  it("gives every command its own usage, options and example", async () => {
    const cwd = temp.make("sibyl-help-");
    const env = { SIBYL_DATA_DIR: cwd };
    const helps = await Promise.all(
      COMMANDS.map((words) => runInProcess([...words, "--help"], env)),
    );
    helps.forEach((help, index) => {
      const words = (COMMANDS[index] as string[]).join(" ");
      expect(help.code, words).toBe(0);
      expect(help.stderr, words).toBe("");
      expect(help.stdout, words).toMatch(new RegExp(`^Usage: sibyl ${words}\\b`));
      expect(help.stdout, words).toContain("Options:");
      expect(help.stdout, words).toContain("--config FILE");
      expect(help.stdout, words).toMatch(new RegExp(`Examples?:\\n  (\\S+=\\S+ )?sibyl ${words}`));
    });
    expect(new Set(helps.map((help) => help.stdout)).size).toBe(COMMANDS.length);
    // Help asked for creates nothing.
    expect(existsSync(path.join(cwd, "sibyl.db"))).toBe(false);
  });

  it("reads `sibyl help COMMAND` as `sibyl COMMAND --help`", async () => {
    const env = { SIBYL_DATA_DIR: temp.make("sibyl-help-word-") };
    const [word, flag, bare] = await Promise.all([
      runInProcess(["help", "credits", "add"], env),
      runInProcess(["credits", "add", "--help"], env),
      runInProcess(["help"], env),
    ]);
    expect(word).toEqual(flag);
    expect(word.code).toBe(0);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain("Usage: sibyl <command>");
  });

  it("lists a group's commands when the group is given alone", async () => {
    const env = { SIBYL_DATA_DIR: temp.make("sibyl-groups-") };
    for (const [group, names] of Object.entries(GROUPS)) {
      const result = await runInProcess([group], env);
      expect(result.code, group).toBe(0);
      for (const name of names) expect(result.stdout).toContain(`${group} ${name}`);
    }
  });

  it.each<[string[], RegExp, string]>([
    [
      ["orgs", "create", "--name", "acme", "--credits-usd", "-5"],
      /^sibyl: --credits-usd cannot be negative, got -5$/m,
      "orgs create",
    ],
    [
      ["orgs", "create", "--nmae", "acme"],
      /orgs create has no option --nmae \(did you mean "--name"\?\)/,
      "orgs create",
    ],
    [["orgs", "create", "--name"], /--name needs a value, as in --name NAME\./, "orgs create"],
    [["orgs", "craete"], /unknown command "orgs craete" \(did you mean "orgs create"\?\)/, "orgs"],
    [["serve", "--no-worker=yes"], /--no-worker is a switch and takes no value/, "serve"],
    [
      ["keys", "revoke", "a", "b"],
      /keys revoke takes only KEY_ID, but got "b" as well\./,
      "keys revoke",
    ],
    [["keys", "list", "--org", "a", "--org", "b"], /--org is given more than once/, "keys list"],
  ])("explains %j in a sentence", async (args, message, command) => {
    const cwd = temp.make("sibyl-mistake-");
    // The first case from a real process, the rest through the same dispatcher in this one.
    const result = args.includes("-5")
      ? await runCli(args, { cwd })
      : await runInProcess(args, { SIBYL_DATA_DIR: cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(`Run "sibyl ${command} --help"`);
    expect(result.stderr).not.toContain("ambiguous");
    // A mistake in the command line creates no database.
    expect(existsSync(path.join(cwd, "sibyl.db"))).toBe(false);
  });
});

describe("sibyl news import", () => {
  const RSS = `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Water Wire</title>
<item><title>Reservoir levels fall</title><link>https://news.example/rss/1</link>
  <pubDate>Tue, 12 Mar 2024 08:00:00 GMT</pubDate><description>Levels fell.</description></item>
</channel></rss>
`;
  const atom = (entry: string) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Water</title>
<entry><title>Reservoir levels fall again</title>${entry}
  <published>2024-03-12T08:00:00Z</published><summary>Levels fell again.</summary></entry>
</feed>
`;

  it("imports RSS and Atom files, and exits 1 when it imported nothing and rejected something", async () => {
    const files = {
      "water.rss": RSS,
      "water.atom": atom('<link href="https://news.example/atom/1"/>'),
      "linkless.atom": atom(""),
    };
    const results = await Promise.all(
      Object.entries(files).map(([name, text]) => {
        const cwd = temp.make("sibyl-feed-import-");
        writeFileSync(path.join(cwd, name), text);
        return runCli(["news", "import", name], { cwd });
      }),
    );
    const [rss, good, linkless] = results.map((result) => ({
      ...result,
      summary: JSON.parse(result.stdout) as unknown,
    }));
    expect(rss).toMatchObject({ code: 0, summary: { imported: 1, rejected: 0 } });
    expect(good).toMatchObject({ code: 0, summary: { imported: 1, rejected: 0 } });
    expect(linkless).toMatchObject({ code: 1, summary: { imported: 0, rejected: 1 } });
    expect(linkless?.stderr).toContain("linkless.atom:3: item has no http(s) link");
  }, 60_000);
});

describe("--config decides where the data lives", () => {
  it("reads relative paths from the configuration's folder, wherever the command runs", async () => {
    const root = temp.make("sibyl-config-home-");
    const instance = path.join(root, "inst2");
    const elsewhere = path.join(root, "elsewhere");
    mkdirSync(instance);
    mkdirSync(elsewhere);
    const port = await freePort();
    writeFileSync(path.join(instance, "sibyl.yaml"), `server: { port: ${port} }\n`);
    // SIBYL_DATA_DIR unset: the data directory is the configuration's business.
    const env = { SIBYL_DATA_DIR: "" };
    const cli = (args: string[], cwd: string): Promise<CliResult> =>
      runCli(args, { cwd, env: { ...env } });

    const created = await cli(
      ["--config", "../inst2/sibyl.yaml", "orgs", "create", "--name", "acme", "--credits-usd", "1"],
      elsewhere,
    );
    const database = path.join(instance, "data", "sibyl.db");
    expect(created.stderr).toBe(
      `sibyl: created a new database at ${database} (from the configuration ../inst2/sibyl.yaml)\n`,
    );
    const { api_key: apiKey } = singleJson({ ...created, stderr: "" }) as { api_key: string };
    expect(existsSync(database)).toBe(true);
    expect(existsSync(path.join(elsewhere, "data"))).toBe(false);

    // A second command on the same configuration finds the database and says nothing.
    const listed = await cli(["orgs", "list", "--config", path.join(instance, "sibyl.yaml")], root);
    expect(listed.stderr).toBe("");
    expect((singleJson(listed).data as unknown[]).length).toBe(1);

    // A server started from yet another folder with that configuration accepts the key.
    const child = spawnCli(["serve", "--config", "inst2/sibyl.yaml"], { cwd: root, env });
    children.push(child);
    const exited = completion(child);
    const startLine = await waitForOutput(child, /dashboard at/);
    const baseUrl = `http://127.0.0.1:${port}`;
    expect(startLine).toContain(`${baseUrl}/dashboard/`);
    expect(startLine).toContain("sibyl --config inst2/sibyl.yaml dashboard link --org org_");
    const balance = await request(baseUrl, "/v1/balance", { apiKey });
    expect(balance.status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
    // Three processes one after another: a busy machine takes more than the default.
  }, 90_000);

  it("names the dashboard it serves and the command that creates an organization when a fresh server starts", async () => {
    const cwd = temp.make("sibyl-first-start-");
    // Any free port: the log names the one the system gave.
    const child = spawnCli(["serve", "--port", "0"], { cwd });
    children.push(child);
    const exited = completion(child);
    const startLine = await waitForOutput(child, /dashboard at/);
    const dashboard = /dashboard at (http:\/\/127\.0\.0\.1:(\d+)\/dashboard\/);/.exec(startLine);
    expect(Number(dashboard?.[2])).toBeGreaterThan(0);
    expect((await fetch(dashboard?.[1] as string)).status).not.toBe(404);
    expect(startLine).toContain("sibyl orgs create --name NAME --credits-usd 5");
    child.kill("SIGTERM");
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `sibyl: created a new database at ${path.join(cwd, "sibyl.db")} (from the built-in defaults)\n`,
    );
  });
});
