// Hosts' tribes (who follows whom) and the countries each host ships to.
import type { Seed } from "./context";
import { chance, DAY, daysAgo, int, NOW, sample } from "./random";

/** Every fan follows 2 to 5 hosts; the demo fan follows the demo host and two others. */
export function addTribes(seed: Seed): void {
  const { rows, hosts, fans, demoHost, demoFan } = seed;
  const membership = new Map<string, Set<string>>(hosts.map((h) => [h.id, new Set<string>()]));
  for (const fan of fans) {
    const chosen = fan === demoFan ? [demoHost, hosts[1]!, hosts[4]!] : sample(hosts, int(2, 5));
    for (const host of chosen) membership.get(host.id)!.add(fan.id);
  }
  // The demo host has the biggest tribe, so it leads the featured creators.
  for (const fan of sample(fans, 22)) membership.get(demoHost.id)!.add(fan.id);
  for (const host of hosts) {
    host.members = fans.filter((f) => membership.get(host.id)!.has(f.id));
    for (const fan of host.members) {
      const joined = new Date(Math.max(fan.createdAt.getTime(), host.createdAt.getTime()) + int(1, 20) * DAY);
      rows.tribeMembers.push({
        userId: fan.id,
        hostId: host.id,
        status: chance(0.85) ? "active" : "inactive",
        joinedAt: joined.getTime() > NOW ? daysAgo(1) : joined,
      });
    }
    for (const code of host.spec.shipsTo) rows.userShippingCountries.push({ hostId: host.id, countryCode: code });
  }
}
