/**
 * Message bodies and verdict codes are sealed with the service-wide sealer (db/sealer.ts), keyed
 * from outside the database; this module keeps the domain's import path for its type.
 */
export type { Sealer } from '../../db/sealer.ts';
