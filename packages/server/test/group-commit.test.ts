import { DatabaseSync, type StatementSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { GroupCommit } from "../src/store/sqlite/group-commit.ts";
import { tempDir } from "./support/temp-dir.ts";

/** A WAL database file, a group commit over one connection to it, and a second connection to look. */
function openDatabase() {
  const dir = tempDir();
  const path = dir.file("group.db");
  const db = new DatabaseSync(path, { timeout: 0 });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)");
  const statements: string[] = [];
  const rollbacks: number[] = [];
  const commits = new GroupCommit(
    db,
    (sql): StatementSync => {
      statements.push(sql);
      return db.prepare(sql);
    },
    () => rollbacks.push(statements.length),
  );
  const other = new DatabaseSync(path, { timeout: 0 });
  const committed = () =>
    (other.prepare("SELECT text FROM notes ORDER BY id").all() as { text: string }[]).map((r) => r.text);
  const insert = (text: string) => () =>
    Number(db.prepare("INSERT INTO notes (text) VALUES (?)").run(text).lastInsertRowid);
  const close = () => {
    other.close();
    db.close();
    dir.remove();
  };
  opened.push(close);
  return { db, commits, statements, rollbacks, other, committed, insert };
}

const opened: (() => void)[] = [];
afterEach(() => {
  for (const close of opened.splice(0)) close();
});

describe("group commit: the writes of one turn of the event loop in one SQLite transaction", () => {
  it("writes asked for together commit once, in order, and each resolves with its own result", async () => {
    const { commits, statements, committed, insert } = openDatabase();
    const results = await Promise.all(["a", "b", "c"].map((text) => commits.run(insert(text))));
    expect(results).toEqual([1, 2, 3]);
    expect(committed()).toEqual(["a", "b", "c"]);
    expect(statements.filter((sql) => sql === "COMMIT")).toHaveLength(1);
    // A write of a later turn is a transaction of its own.
    await commits.run(insert("d"));
    expect(statements.filter((sql) => sql === "COMMIT")).toHaveLength(2);
  });

  it("nothing resolves before its commit: another connection already sees the write", async () => {
    const { commits, committed, insert } = openDatabase();
    const seen: string[][] = [];
    await Promise.all(["x", "y"].map((text) => commits.run(insert(text)).then(() => seen.push(committed()))));
    expect(seen).toEqual([
      ["x", "y"],
      ["x", "y"],
    ]);
  });

  it("a write that throws is undone alone; its caller gets the error and the others commit", async () => {
    const { db, commits, committed, insert } = openDatabase();
    const halfDone = () => {
      db.prepare("INSERT INTO notes (text) VALUES ('half')").run();
      throw new Error("refused after writing");
    };
    const settled = await Promise.allSettled([
      commits.run(insert("one")),
      commits.run(halfDone),
      commits.run(insert("one")), // the unique text: SQLite refuses it
      commits.run(insert("two")),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain("refused after writing");
    expect(String((settled[2] as PromiseRejectedResult).reason)).toContain("UNIQUE");
    expect(committed()).toEqual(["one", "two"]);
  });

  it("when the whole transaction is lost, the writes before fail with it and the ones after commit", async () => {
    const { db, commits, committed, insert, rollbacks } = openDatabase();
    // What SQLite does on a full disk or an I/O error: it rolls the transaction back itself.
    const losesTransaction = () => {
      db.exec("ROLLBACK");
      throw new Error("disk I/O error");
    };
    const settled = await Promise.allSettled([
      commits.run(insert("before")),
      commits.run(losesTransaction),
      commits.run(insert("after")),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(committed()).toEqual(["after"]);
    expect(db.isTransaction).toBe(false);
    // The store is told, so it drops what it kept from reads inside the lost transaction.
    expect(rollbacks).toHaveLength(1);
  });

  it("a group that cannot take the write lock fails every write in it, and the next group runs", async () => {
    const { commits, other, committed, insert } = openDatabase();
    other.exec("BEGIN IMMEDIATE");
    const settled = await Promise.allSettled([commits.run(insert("p")), commits.run(insert("q"))]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    other.exec("ROLLBACK");
    await commits.run(insert("r"));
    expect(committed()).toEqual(["r"]);
  });

  it("drain() commits what is queued at once", async () => {
    const { commits, committed, insert } = openDatabase();
    const write = commits.run(insert("now"));
    commits.drain();
    expect(committed()).toEqual(["now"]);
    await expect(write).resolves.toBe(1);
  });
});
