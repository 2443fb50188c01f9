import * as migration_20261122_052015_initial from './20261122_052015_initial';
import * as migration_20261122_060235_publishable from './20261122_060235_publishable';
import * as migration_20261122_080916_user_tokens from './20261122_080916_user_tokens';
import * as migration_20261122_081018_route_live_at from './20261122_081018_route_live_at';
import * as migration_20261122_083006_route_effective_live_at from './20261122_083006_route_effective_live_at';
import * as migration_20261122_090000_users_email_unique from './20261122_090000_users_email_unique';
import * as migration_20261123_140000_auth_hardening from './20261123_140000_auth_hardening';
import * as migration_20261123_141000_integrity from './20261123_141000_integrity';
import * as migration_20261123_170000_uploaded_files from './20261123_170000_uploaded_files';
import * as migration_20261123_171000_orphans_and_jobs from './20261123_171000_orphans_and_jobs';
import * as migration_20261123_172000_go_live_job from './20261123_172000_go_live_job';
import * as migration_20261123_173000_frontend from './20261123_173000_frontend';
import * as migration_20261123_173100_form_type_hash from './20261123_173100_form_type_hash';
import * as migration_20261123_200000_admin_titles_rich_text from './20261123_200000_admin_titles_rich_text';
import * as migration_20261127_150000_image_alt from './20261127_150000_image_alt';

export const migrations = [
  {
    up: migration_20261122_052015_initial.up,
    down: migration_20261122_052015_initial.down,
    name: '20261122_052015_initial',
  },
  {
    up: migration_20261122_060235_publishable.up,
    down: migration_20261122_060235_publishable.down,
    name: '20261122_060235_publishable',
  },
  {
    up: migration_20261122_080916_user_tokens.up,
    down: migration_20261122_080916_user_tokens.down,
    name: '20261122_080916_user_tokens',
  },
  {
    up: migration_20261122_081018_route_live_at.up,
    down: migration_20261122_081018_route_live_at.down,
    name: '20261122_081018_route_live_at',
  },
  {
    up: migration_20261122_083006_route_effective_live_at.up,
    down: migration_20261122_083006_route_effective_live_at.down,
    name: '20261122_083006_route_effective_live_at',
  },
  {
    up: migration_20261122_090000_users_email_unique.up,
    down: migration_20261122_090000_users_email_unique.down,
    name: '20261122_090000_users_email_unique',
  },
  {
    up: migration_20261123_140000_auth_hardening.up,
    down: migration_20261123_140000_auth_hardening.down,
    name: '20261123_140000_auth_hardening',
  },
  {
    up: migration_20261123_141000_integrity.up,
    down: migration_20261123_141000_integrity.down,
    name: '20261123_141000_integrity',
  },
  {
    up: migration_20261123_170000_uploaded_files.up,
    down: migration_20261123_170000_uploaded_files.down,
    name: '20261123_170000_uploaded_files',
  },
  {
    up: migration_20261123_171000_orphans_and_jobs.up,
    down: migration_20261123_171000_orphans_and_jobs.down,
    name: '20261123_171000_orphans_and_jobs',
  },
  {
    up: migration_20261123_172000_go_live_job.up,
    down: migration_20261123_172000_go_live_job.down,
    name: '20261123_172000_go_live_job',
  },
  {
    up: migration_20261123_173000_frontend.up,
    down: migration_20261123_173000_frontend.down,
    name: '20261123_173000_frontend',
  },
  {
    up: migration_20261123_173100_form_type_hash.up,
    down: migration_20261123_173100_form_type_hash.down,
    name: '20261123_173100_form_type_hash',
  },
  {
    up: migration_20261123_200000_admin_titles_rich_text.up,
    down: migration_20261123_200000_admin_titles_rich_text.down,
    name: '20261123_200000_admin_titles_rich_text',
  },
  {
    up: migration_20261127_150000_image_alt.up,
    down: migration_20261127_150000_image_alt.down,
    name: '20261127_150000_image_alt',
  },
];
