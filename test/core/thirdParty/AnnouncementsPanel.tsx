/** The third party's admin panel (a server component the dashboard shows above its collections). */
export function AnnouncementsPanel() {
  return <p data-acme-announcements>Announcements: post one through POST /_api/_/announcements.</p>
}
