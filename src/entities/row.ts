/**
 * The row of an entity's table as raw SQL returns it, derived from the entity so a query's row
 * type cannot disagree with the table (docs/architecture.md, "Data layer"): snake_case column
 * names, timestamps as the driver hands them over (a string, or a Date), `bytea` as a Buffer, a
 * many-to-one relation as its foreign key column (`account` → `account_id: string`). Pick the
 * selected columns: `Pick<RowOf<ChallengeSession>, 'id' | 'state'>`.
 */

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** Properties that hold another entity (many-to-one / one-to-one owners): they have an id. */
type IsRelation<T> = NonNullable<T> extends { id: string } ? true : false;

/** node-postgres hands timestamps over as strings here and `bytea` as a Buffer. */
type Column<T> = T extends Date ? string | Date : T extends Uint8Array ? Buffer : T;

type ScalarKeys<E> = {
  [K in keyof E]-?: K extends string
    ? E[K] extends (...args: never[]) => unknown
      ? never
      : IsRelation<E[K]> extends true
        ? never
        : K
    : never;
}[keyof E];

type RelationKeys<E> = {
  [K in keyof E]-?: K extends string ? (IsRelation<E[K]> extends true ? K : never) : never;
}[keyof E];

export type RowOf<E> = {
  -readonly [K in ScalarKeys<E> as Snake<K>]-?: Column<Exclude<E[K], undefined>>;
} & {
  -readonly [K in RelationKeys<E> as `${Snake<K>}_id`]-?: null extends E[K]
    ? string | null
    : string;
};

/** Columns of an outer-joined table: each one null when the join found no row. */
export type OuterRow<R> = { [K in keyof R]: R[K] | null };
