import { describe, expect, it } from "vitest";
import { tribeJoinOutcome, tribeJoinResult, tribeJoinSchema } from "~/domain/tribe";

describe("Join Tribe outcomes", () => {
  it("answers each outcome with the product's text; only a new membership is ok", () => {
    expect(tribeJoinResult("joined")).toEqual({
      ok: true,
      outcome: "joined",
      message: "Successfully joined the tribe!",
    });
    expect(tribeJoinResult("already", "h1")).toEqual({
      ok: false,
      outcome: "already",
      message: "You are already a member of this tribe!",
      hostId: "h1",
    });
    expect(tribeJoinResult("own").message).toBe("This is your own tribe.");
    expect(tribeJoinResult("sign-in").message).toBe("Please sign in to join tribe");
    expect(tribeJoinResult("failed").message).toBe("Failed to join tribe. Please try again.");
  });

  it("reads only a known outcome back from the query string", () => {
    expect(tribeJoinOutcome("joined")).toBe("joined");
    expect(tribeJoinOutcome("sign-in")).toBe("sign-in");
    expect(tribeJoinOutcome("<script>")).toBeNull();
    expect(tribeJoinOutcome("")).toBeNull();
    expect(tribeJoinOutcome(null)).toBeNull();
  });

  it("needs a host id and caps both fields", () => {
    expect(tribeJoinSchema.safeParse({ hostId: " h1 " }).data).toEqual({ hostId: "h1" });
    expect(tribeJoinSchema.safeParse({}).success).toBe(false);
    expect(tribeJoinSchema.safeParse({ hostId: "  " }).success).toBe(false);
    expect(tribeJoinSchema.safeParse({ hostId: "x".repeat(101) }).success).toBe(false);
    expect(tribeJoinSchema.safeParse({ hostId: "h1", returnTo: "/".repeat(2049) }).success).toBe(false);
  });
});
