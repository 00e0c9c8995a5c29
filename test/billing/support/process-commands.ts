import type { LedgerCommand } from "./ledger-commands.js";
import { type LedgerModel, type LedgerSystem, sweepOrphans } from "./ledger-model.js";

/*
 * Process A runs throughout; process B stops beating, crashes and starts again. Time moves only
 * in these commands, and every live process beats before the lease can run out, so the sweep
 * returns the holds of dead processes and only those.
 */

/**
 * Process B stops beating (cut off from the others) but runs on: once its lease has run out, A's sweep returns B's stored
 * holds and leases. B may still settle what it held (see Settle).
 */
export class CutOff implements LedgerCommand {
  check = (model: Readonly<LedgerModel>) => model.b === "alive";
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    system.clock.advanceSeconds(system.leaseSeconds + 1);
    await system.a.holds.sweep();
    model.b = "cut off";
    sweepOrphans(model);
  }
  toString = () => "CutOff";
}

/**
 * Process B is killed: nothing it holds is settled or given back, and its in-memory holds are
 * gone. Its stored holds and leases stay in the database until a sweep finds it dead.
 */
export class Crash implements LedgerCommand {
  check = (model: Readonly<LedgerModel>) => model.b !== "crashed";
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    await system.database.crash(system.b);
    model.b = "crashed";
    for (const held of model.holds) {
      if (held.process === "B" && held.leased) held.open = false;
    }
  }
  toString = () => "Crash";
}

/**
 * A new process B starts on the same database and runs the sweep every process runs as it
 * starts. `late`: the crashed one's lease has run out by then (A beat meanwhile), so that start-up
 * sweep returns the crashed process's holds.
 */
export class Restart implements LedgerCommand {
  constructor(readonly late: boolean) {}
  check = (model: Readonly<LedgerModel>) => model.b === "crashed";
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    if (this.late) {
      await passHalfLease(system);
      system.clock.advanceSeconds(halfLease(system));
    }
    system.b = await system.database.open(system.clock);
    await system.b.holds.sweep();
    model.b = "alive";
    model.bLife += 1;
    if (this.late) sweepOrphans(model);
  }
  toString = () => `Restart(late ${this.late})`;
}

/** Time passes beyond the lease while the live processes beat: dead processes' holds return. */
export class PassTime implements LedgerCommand {
  check = () => true;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    await passHalfLease(system, model);
    await passHalfLease(system, model);
    sweepOrphans(model);
  }
  toString = () => "PassTime";
}

/** Just over half a lease: two of them pass the lease, and a process beating at each lives. */
function halfLease(system: LedgerSystem): number {
  return Math.ceil(system.leaseSeconds / 2) + 1;
}

/** Half a lease passes; A beats and sweeps, then B when it is alive (given the model). */
async function passHalfLease(system: LedgerSystem, model?: LedgerModel): Promise<void> {
  system.clock.advanceSeconds(halfLease(system));
  await system.a.holds.sweep();
  if (model?.b === "alive") await system.b.holds.sweep();
}
