import * as migration_20261122_052015_initial from './20261122_052015_initial';

export const migrations = [
  {
    up: migration_20261122_052015_initial.up,
    down: migration_20261122_052015_initial.down,
    name: '20261122_052015_initial'
  },
];
