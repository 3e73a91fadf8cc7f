import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CrashPolicy } from "../../extension/src/crashPolicy";

describe("what the client does when the server's connection errors or closes", () => {
  test("a write error (EPIPE from a server that just died) never stops the client: the close decides", () => {
    const policy = new CrashPolicy("JAX Sharp Bits");
    for (let i = 0; i < 10; i++) assert.deepEqual(policy.error(), { action: "continue" });
    assert.deepEqual(policy.closed(), { action: "restart" });
  });

  test("restarts four times within three minutes, then stays stopped and says why", () => {
    let t = 0;
    const policy = new CrashPolicy("JAX Sharp Bits", 4, 180_000, () => t);
    for (let i = 0; i < 4; i++) {
      t += 10_000;
      assert.deepEqual(policy.closed(), { action: "restart" }, `close ${i + 1}`);
    }
    t += 10_000;
    const fifth = policy.closed();
    assert.equal(fifth.action, "stay-stopped");
    assert.match(fifth.action === "stay-stopped" ? fifth.message : "", /stopped 5 times in the last 3 minutes.*Restart Server/);
  });

  test("closes spread over more than the window keep restarting", () => {
    let t = 0;
    const policy = new CrashPolicy("JAX Sharp Bits", 4, 180_000, () => t);
    for (let i = 0; i < 20; i++) {
      t += 60_000;
      assert.deepEqual(policy.closed(), { action: "restart" }, `close ${i + 1} at minute ${t / 60_000}`);
    }
  });
});
