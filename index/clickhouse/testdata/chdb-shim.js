// chdb-shim.js: answers index/clickhouse's requests with chDB, the
// ClickHouse engine as a library (npm chdb), for TestOnCurrentClickHouse.
// One request a line on stdin, as JSON {sql, in}: in is a file holding an
// INSERT's data. One answer a line on stdout: {out} (base64) or {err}.
// RowBinary answers go through a file (the library's sync query returns
// text); settings of the HTTP interface are not needed here.
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const { Session } = require("chdb");

const dir = process.argv[2];
const s = new Session(path.join(dir, "data"));
const outFile = path.join(dir, "answer.bin");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let sql = req.sql;
  let binary = false;
  try {
    if (req.in) {
      const m = sql.match(/^(INSERT INTO \S+ \([^)]*\)) FORMAT (\w+)$/);
      if (!m) throw new Error("shim: cannot read " + sql);
      sql = `${m[1]} FROM INFILE '${req.in}' FORMAT ${m[2]}`;
    } else if (sql.endsWith(" FORMAT RowBinary")) {
      sql = sql.slice(0, -" FORMAT RowBinary".length) + ` INTO OUTFILE '${outFile}' TRUNCATE FORMAT RowBinary`;
      binary = true;
    }
    s.query(sql, "TSV");
    const out = binary ? fs.readFileSync(outFile).toString("base64") : "";
    process.stdout.write(JSON.stringify({ out }) + "\n");
  } catch (e) {
    process.stdout.write(JSON.stringify({ err: String((e && e.message) || e) }) + "\n");
  }
});
rl.on("close", () => { s.cleanup && s.cleanup(); });
