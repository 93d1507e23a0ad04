import { describe, expect, it } from "vitest";
import {
  connectionRefusal,
  freshBudget,
  openSockets,
  SOCKET_CLOSE_REASONS,
  SOCKET_MESSAGES_PER_SECOND,
  SOCKET_MESSAGES_TOTAL,
  spendMessage,
  STATE_REPLY_INTERVAL_MS,
  stateReplyDue,
  type SocketBudget,
} from "~/domain/socket-budget";
import { UPLOAD_DAILY_BYTES, UPLOAD_DAILY_FILES, UPLOAD_TOTAL_BYTES, uploadQuotaProblem } from "~/domain/upload-quotas";

function spendMany(budget: SocketBudget, times: number[], kind: "message" | "ping" = "message") {
  let within = true;
  for (const now of times) {
    const spent = spendMessage(budget, now, kind);
    budget = spent.budget;
    within = spent.withinBudget;
  }
  return { budget, within };
}

describe("socket message budget", () => {
  it("allows the per-second budget in one second and refuses the next message", () => {
    const start = 1_000_000;
    const burst = Array.from({ length: SOCKET_MESSAGES_PER_SECOND }, () => start + 10);
    expect(spendMany(freshBudget(start), burst).within).toBe(true);
    expect(spendMany(freshBudget(start), [...burst, start + 999]).within).toBe(false);
    // The next second starts a new window.
    expect(spendMany(freshBudget(start), [...burst, start + 1_010]).within).toBe(true);
  });

  it("refuses past the total over the socket's life, however slowly it is spent; pings count per second only", () => {
    const start = 1_000_000;
    const slow = Array.from({ length: SOCKET_MESSAGES_TOTAL }, (_, i) => start + i * 1_000);
    const spent = spendMany(freshBudget(start), slow);
    expect(spent.within).toBe(true);
    expect(spendMessage(spent.budget, start + SOCKET_MESSAGES_TOTAL * 1_000).withinBudget).toBe(false);
    expect(spendMany(freshBudget(start), [...slow, ...slow.map((t) => t + 500)], "ping").within).toBe(true);
  });

  it("coalesces state replies: none within the interval after the last one (the state on connect counts)", () => {
    const start = 5_000_000;
    const budget = freshBudget(start);
    expect(stateReplyDue(budget, start + 10)).toBe(false);
    expect(stateReplyDue(budget, start + STATE_REPLY_INTERVAL_MS - 1)).toBe(false);
    expect(stateReplyDue(budget, start + STATE_REPLY_INTERVAL_MS)).toBe(true);
    // A clock that went backwards never blocks replies for good.
    expect(stateReplyDue(budget, start - 60_000)).toBe(true);
  });
});

describe("socket connection limits", () => {
  const limits = { perAddress: 3, total: 5 };
  it("refuses past the per-address limit and past the total, and nothing below them", () => {
    expect(connectionRefusal({ fromAddress: 2, total: 4 }, limits)).toBeNull();
    expect(connectionRefusal({ fromAddress: 3, total: 3 }, limits)).toBe(SOCKET_CLOSE_REASONS.tooManyConnections);
    expect(connectionRefusal({ fromAddress: 0, total: 5 }, limits)).toBe(SOCKET_CLOSE_REASONS.tooManyConnections);
  });
  it("counts only open sockets (one closed over its budget may linger, closing)", () => {
    expect(openSockets([{ readyState: 1 }, { readyState: 2 }, { readyState: 3 }, { readyState: 1 }])).toBe(2);
  });
});

describe("upload quotas", () => {
  it("names the daily quota (bytes or files) before the total one", () => {
    const none = { todayBytes: 0, todayFiles: 0, totalBytes: 0 };
    expect(uploadQuotaProblem(none, UPLOAD_DAILY_BYTES)).toBeNull();
    expect(uploadQuotaProblem(none, UPLOAD_DAILY_BYTES + 1)).toBe("daily");
    expect(uploadQuotaProblem({ ...none, todayFiles: UPLOAD_DAILY_FILES }, 1)).toBe("daily");
    expect(uploadQuotaProblem({ ...none, totalBytes: UPLOAD_TOTAL_BYTES }, 1)).toBe("total");
  });
});
