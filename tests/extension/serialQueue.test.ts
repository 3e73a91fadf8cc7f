import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SerialQueue } from "../../extension/src/serialQueue";

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe("restart queue", () => {
  test("never runs two jobs at once and keeps their order", async () => {
    const q = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const job = (name: string) => async () => {
      running++;
      assert.equal(running, 1, "two jobs overlapped");
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
    };
    const a = q.request(job("a"));
    await tick(1); // a is running now
    const b = q.request(job("b"));
    await Promise.all([a, b]);
    assert.deepEqual(log, ["start a", "end a", "start b", "end b"]);
  });

  test("a burst of requests while one waits collapses into one run", async () => {
    const q = new SerialQueue();
    let runs = 0;
    const job = async () => {
      runs++;
      await tick();
    };
    const first = q.request(job);
    await tick(1);
    const burst = [q.request(job), q.request(job), q.request(job)];
    assert.equal(burst[0], burst[1]);
    assert.equal(burst[1], burst[2]);
    await Promise.all([first, ...burst]);
    assert.equal(runs, 2);
  });

  test("a failing job rejects its caller but does not block the next one", async () => {
    const q = new SerialQueue();
    await assert.rejects(q.request(async () => { throw new Error("boom"); }), /boom/);
    let ran = false;
    await q.request(async () => { ran = true; });
    assert.ok(ran);
    await q.idle();
  });
});
