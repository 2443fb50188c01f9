import * as migration_20261122_052015_initial from './20261122_052015_initial';
import * as migration_20261122_060235_publishable from './20261122_060235_publishable';

export const migrations = [
  {
    up: migration_20261122_052015_initial.up,
    down: migration_20261122_052015_initial.down,
    name: '20261122_052015_initial',
  },
  {
    up: migration_20261122_060235_publishable.up,
    down: migration_20261122_060235_publishable.down,
    name: '20261122_060235_publishable'
  },
];
