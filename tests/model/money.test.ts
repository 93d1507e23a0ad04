import fc from "fast-check";
import { afterEach, expect, it, vi } from "vitest";
import { ClosePool, commandArbitraries, Draw } from "./commands";
import { MAX_COMMANDS, NUM_RUNS, REPLAY, SEED, TIME_BUDGET_MS } from "./config";
import { settle } from "./invariants";
import { newModel, stats } from "./model";
import { makeWorld } from "./world";

// The model-based money test (issue 26, docs/decisions/400-model-based-money-test.md): random sequences of carts
// and joins of every size, buy-nows, guesses, deposits, payments delivered late, twice, raced and out of order,
// refunds, disputes, restores, deletions, group-buy ends and cancels, pool closes and draws, and cron runs on the
// test's clock, through the Worker's webhook and cron. Invariants: tests/model/invariants.ts. A failure prints its
// seed and replay path; put them in config.ts REPLAY to run that counterexample alone.

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

it(
  "money is never stuck, created or lost, in any order of events",
  async () => {
    let runs = 0;
    let lastLog: string[] = [];
    const started = Date.now();
    const property = fc.asyncProperty(
      fc.commands(commandArbitraries(), { maxCommands: MAX_COMMANDS, size: "max", replayPath: REPLAY?.replayPath }),
      async (commands) => {
        runs += 1;
        vi.useFakeTimers({ toFake: ["Date"] });
        // The Worker logs every refused event and cron step; a run's own log is printed with a failure instead.
        if (!REPLAY)
          for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(() => {});
        const world = await makeWorld();
        const model = newModel(world.groupBuys);
        try {
          await fc.asyncModelRun(() => ({ model, real: world }), commands);
          // Every run ends by closing both hosts' pools and drawing what closed with entries (the draw's invariants are
          // checked after each step), then at a quiescent point.
          for (const step of [new ClosePool(0), new ClosePool(1), new Draw()]) await step.run(model, world);
          await settle(model, world);
        } catch (error) {
          lastLog = model.log;
          throw error;
        } finally {
          vi.restoreAllMocks();
          vi.useRealTimers();
        }
      },
    );
    const details = await fc.check(property, {
      seed: REPLAY?.seed ?? SEED,
      path: REPLAY?.path,
      numRuns: REPLAY ? 1 : NUM_RUNS,
      // Shrinking is bounded by the test's budget: leave room to report.
      interruptAfterTimeLimit: TIME_BUDGET_MS - 30_000,
      markInterruptAsFailure: false,
    });
    if (REPLAY) console.log(`model: the replayed steps\n  ${lastLog.join("\n  ")}`);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `model: ${runs} runs (${details.numRuns} of ${REPLAY ? 1 : NUM_RUNS} passed, ${details.numShrinks} shrinks${details.interrupted ? ", stopped at the time budget" : ""}) in ${seconds} s; ` +
        `draws: ${stats.drawn} drawn, ${stats.voided} voided and redrawn, ${stats.hostRefundsOfWinners} host refunds of a winning order; ` +
        `${stats.freeEntries} free entries (${stats.freeVoids} voided), ${stats.postalEntries} postal entries`,
    );
    if (details.failed) {
      const shown = fc.stringify(details.counterexample);
      const error =
        details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      const message = error.includes("steps so far")
        ? error
        : `${error}\n  steps of the last failing run:\n    ${lastLog.join("\n    ")}`;
      const replayPath = /replayPath="([^"]*)"/.exec(shown)?.[1] ?? "";
      const replay = `{ seed: ${details.seed}, path: "${details.counterexamplePath}", replayPath: "${replayPath}" }`;
      throw new Error(
        `The model found a failure (seed ${details.seed}).\n` +
          `Commands: ${shown}\n` +
          `Error: ${message}\n\n` +
          `Replay: set REPLAY = ${replay} in tests/model/config.ts, then npx vitest run tests/model/money.test.ts`,
      );
    }
    expect(details.numRuns).toBeGreaterThan(0);
    // The runs reach the draw: a pool closes, is committed and drawn (else the draw's invariants test nothing).
    if (!REPLAY) expect(stats.drawn).toBeGreaterThan(0);
    // The free routes were exercised, not only refused (decision 530).
    if (!REPLAY) expect(Math.min(stats.freeEntries, stats.postalEntries)).toBeGreaterThan(0);
  },
  TIME_BUDGET_MS,
);
