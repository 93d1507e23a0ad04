import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// Every migration keeps every row (decision 450). The database is emptied, then the migrations are applied in order
// as D1 applies them (foreign keys enforced); before each one after the first, a row is written into every table that
// exists (each child row pointing at that step's parent rows, so a cascade would reach it), and after it no table may
// have fewer rows. A migration that drops and recreates a table fails here: D1 refuses the drop when a child restricts
// it, and otherwise fires the children's ON DELETE CASCADE.

type Migration = { name: string; queries: string[] };
type Column = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
type ForeignKey = { table: string; from: string; to: string | null };
type Row = Record<string, string | number>;

const db = env.DB;
const migrations: Migration[] = env.TEST_MIGRATIONS;

/** Columns a generic row cannot fill with its own text or number (a CHECK constraint names the allowed values). */
const FIXED_VALUES: Record<string, string> = {
  "draw_commitments.kind": "commit",
  "transparency_log.kind": "commit",
};

/**
 * A virtual table (the FTS5 product search index of migration 0034) and its shadow tables (`<name>_data`, ...):
 * not rows of their own (the index is rebuilt from products), so the row checks leave them out.
 */
const VIRTUAL =
  "(sql like 'CREATE VIRTUAL TABLE%' or exists (select 1 from sqlite_master v where v.sql like 'CREATE VIRTUAL TABLE%' " +
  "and m.name like v.name || '\\_%' escape '\\'))";

async function tableNames(): Promise<string[]> {
  const { results } = await db
    .prepare(
      "select name from sqlite_master m where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' " +
        `and name <> 'd1_migrations' and not ${VIRTUAL} order by name`,
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

async function dropEverything(): Promise<void> {
  const { results } = await db
    .prepare("select type, name from sqlite_master where type = 'view' or sql like 'CREATE VIRTUAL TABLE%'")
    .all<{ type: string; name: string }>();
  for (const { type, name } of results) await db.prepare(`drop ${type} "${name}"`).run();
  for (const name of await tableNames()) await db.prepare(`drop table "${name}"`).run();
}

async function apply(migration: Migration): Promise<void> {
  const queries = migration.queries.map((q) => q.trim()).filter(Boolean);
  if (queries.length) await db.batch(queries.map((q) => db.prepare(q)));
}

async function rowCounts(): Promise<Record<string, number>> {
  const names = await tableNames();
  const counts = await db.batch<{ n: number }>(names.map((n) => db.prepare(`select count(*) as n from "${n}"`)));
  return Object.fromEntries(names.map((name, i) => [name, counts[i].results[0].n]));
}

/** The tables in an order where every table comes after the tables its foreign keys point at. */
async function schemaOf(): Promise<{ name: string; columns: Column[]; keys: ForeignKey[] }[]> {
  const names = await tableNames();
  const info = await db.batch(
    names.flatMap((n) => [db.prepare(`pragma table_info("${n}")`), db.prepare(`pragma foreign_key_list("${n}")`)]),
  );
  const tables = names.map((name, i) => ({
    name,
    columns: info[2 * i].results as Column[],
    keys: info[2 * i + 1].results as ForeignKey[],
  }));
  const ordered: typeof tables = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (t) => !placed.has(t.name) && t.keys.every((k) => k.table === t.name || placed.has(k.table)),
    );
    if (!ready.length) throw new Error("the foreign keys form a cycle");
    for (const t of ready) {
      ordered.push(t);
      placed.add(t.name);
    }
  }
  return ordered;
}

/**
 * Writes one row into every table: each foreign key points at this step's row of its parent, every other column
 * gets a value of its type unique to the step (text as a small JSON object, which also satisfies JSON indexes).
 */
async function writeRowEverywhere(step: number): Promise<void> {
  const rows = new Map<string, Row>();
  const ordered = await schemaOf();
  const tables = new Map(ordered.map((t) => [t.name, t]));
  const inserts: { table: string; statement: D1PreparedStatement }[] = [];
  for (const table of ordered) {
    const row: Row = {};
    for (const column of table.columns) {
      const fixed = FIXED_VALUES[`${table.name}.${column.name}`];
      if (fixed !== undefined) row[column.name] = fixed;
      else if (/int|real|num/i.test(column.type)) row[column.name] = step + 1;
      else row[column.name] = JSON.stringify({ v: `${table.name}.${column.name}.${step}` });
    }
    for (const key of table.keys) {
      const parent = rows.get(key.table);
      if (!parent) throw new Error(`${table.name}: no row in ${key.table}`);
      const parentKey = key.to ?? tables.get(key.table)?.columns.find((c) => c.pk === 1)?.name ?? "id";
      row[key.from] = parent[parentKey];
    }
    const names = Object.keys(row);
    inserts.push({
      table: table.name,
      statement: db
        .prepare(
          `insert into "${table.name}" (${names.map((n) => `"${n}"`).join(", ")}) values (${names.map(() => "?").join(", ")})`,
        )
        .bind(...names.map((n) => row[n])),
    });
    rows.set(table.name, row);
  }
  try {
    await db.batch(inserts.map((i) => i.statement));
  } catch {
    // One at a time, to name the table that refused its row.
    for (const { table, statement } of inserts) {
      await statement.run().catch((error: unknown) => {
        throw new Error(`step ${step}: writing a row into ${table} failed`, { cause: error });
      });
    }
  }
}

/** The tables that have fewer rows (or are gone) after than before, with both counts. */
function lostRows(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.entries(before)
    .filter(([name, n]) => (after[name] ?? 0) < n)
    .map(([name, n]) => `${name}: ${n} -> ${after[name] ?? "gone"}`);
}

describe("migrations", () => {
  it("applies every migration in order without losing a row of any table", async () => {
    expect(migrations.length).toBeGreaterThan(20);
    await dropEverything();
    expect(await tableNames()).toEqual([]);
    await apply(migrations[0]);
    for (let step = 1; step < migrations.length; step++) {
      await writeRowEverywhere(step);
      const before = await rowCounts();
      expect(Object.values(before).every((n) => n >= 1)).toBe(true);
      await apply(migrations[step]);
      expect(lostRows(before, await rowCounts()), `${migrations[step].name} lost rows`).toEqual([]);
    }
    // After the last one: the schema works for a fresh row everywhere too.
    await writeRowEverywhere(migrations.length);
  }, 60_000);

  it("catches a migration that loses rows through a cascade (the check can fail)", async () => {
    await writeRowEverywhere(1_000);
    const before = await rowCounts();
    expect(before.mini_prize_winners).toBeGreaterThan(0);
    // What dropping a table does first, when recreating it: an implicit DELETE, which fires its children's cascades.
    await apply({ name: "empty prize_mini_prizes", queries: ["delete from prize_mini_prizes"] });
    expect(lostRows(before, await rowCounts())).toEqual([
      `mini_prize_winners: ${before.mini_prize_winners} -> 0`,
      `prize_mini_prizes: ${before.prize_mini_prizes} -> 0`,
    ]);
  });
});
