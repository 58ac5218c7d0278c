// The episode table as Apache Parquet, written by hyparquet-writer (pure JavaScript, no native code). Every column
// is nullable: string -> BYTE_ARRAY UTF8, int -> INT64, double -> DOUBLE, boolean -> BOOLEAN; Snappy pages. The file's
// key-value metadata names the table version and the sweep, so a reader can tell what it holds.
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { BasicType } from 'hyparquet-writer';
import type { ColumnType, EpisodeTable } from './episodeTable.js';

/** Bumped when a column changes meaning or type (adding columns does not). */
export const TABLE_VERSION = '1';

const PARQUET_TYPE: Record<ColumnType, BasicType> = { string: 'STRING', int: 'INT64', double: 'DOUBLE', boolean: 'BOOLEAN' };

export function toParquet(t: EpisodeTable, meta: { createdBy: string; source: string }): Uint8Array {
  // hyparquet-writer writes a file with no rows that other readers refuse (arrow-rs: "Expected list element type of
  // Struct"), so an empty table is the caller's to refuse.
  if (t.rows === 0) throw new Error('no episodes to write');
  const columnData = t.columns.map((c) => ({
    name: c.name,
    type: PARQUET_TYPE[c.type],
    nullable: true,
    // INT64 values go in as bigint.
    data: c.type === 'int' ? c.values.map((v) => (v === null ? null : BigInt(v as number))) : c.values,
  }));
  const buf = parquetWriteBuffer({
    columnData,
    createdBy: meta.createdBy,
    kvMetadata: [
      { key: 'waypoint.table', value: `episodes v${TABLE_VERSION}` },
      { key: 'waypoint.source', value: meta.source },
    ],
  });
  return new Uint8Array(buf);
}
