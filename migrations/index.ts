import * as migration_20261122_051432_initial from './20261122_051432_initial';

export const migrations = [
  {
    up: migration_20261122_051432_initial.up,
    down: migration_20261122_051432_initial.down,
    name: '20261122_051432_initial'
  },
];
