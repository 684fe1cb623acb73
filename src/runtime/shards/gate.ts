// May this member act on a namespace now? The hand-over rule of sharding, pure (DESIGN §5):
// a namespace is acted on by one member at a time, also while members come and go.
//
// Each member has
//   - its current view: the live members it sees (member Leases not expired by its own clock);
//   - its acknowledged view, written to its own Lease only once it has stopped acting on every
//     namespace it does not own under that view (its in-flight reconciles of them finished).
// A member acts on namespace ns only when
//   1. its own Lease is fresh enough (renewed less than leaseDuration − margin ago): a member
//      that cannot renew stops before anyone else may count it gone (fencing);
//   2. it owns ns under its current view AND under the view it has acknowledged (published):
//      what others read of it is never behind what it does;
//   3. no other live member's acknowledged view gives ns to that member: whoever may still act on
//      ns has let it go (acknowledged a view where it is not theirs), or its Lease expired.
// So when a member joins, the namespaces it takes wait for their previous owners to finish and
// acknowledge; when one is killed, its namespaces wait until its Lease expires (one lease
// duration), then move to their runners-up.
import type { Assignment } from "./rendezvous.ts";

export interface PeerState {
  readonly name: string;
  /** The view it acknowledged (its Lease's annotation); undefined: none yet (it acts on nothing). */
  readonly acknowledged: Assignment | undefined;
}

export interface MemberState {
  readonly self: string;
  /** Live members as this member sees them now, itself included. */
  readonly view: Assignment;
  /** The view this member's Lease says it acknowledged (as last written successfully). */
  readonly acknowledged: Assignment | undefined;
  /** Other live members (not expired by this member's clock). */
  readonly peers: readonly PeerState[];
  /** Whether this member's own Lease is fresh enough to act (condition 1). */
  readonly fenced: boolean;
}

export type GateAnswer =
  | { readonly act: true }
  | { readonly act: false; readonly why: string; readonly owner?: string };

/** Whether `state.self` may act on `namespace` now, and if not, why (for logs and explain). */
export function mayAct(state: MemberState, namespace: string): GateAnswer {
  if (state.fenced) return { act: false, why: `member ${state.self} has not renewed its Lease in time` };
  const owner = state.view.ownerOf(namespace);
  if (owner !== state.self) {
    return {
      act: false,
      why: `namespace ${namespace} belongs to member ${owner ?? "(none)"}`,
      ...(owner ? { owner } : {}),
    };
  }
  if (state.acknowledged?.ownerOf(namespace) !== state.self) {
    return {
      act: false,
      why: `member ${state.self} has not yet acknowledged the view that gives it ${namespace}`,
    };
  }
  for (const peer of state.peers) {
    if (peer.name === state.self || peer.acknowledged === undefined) continue;
    if (peer.acknowledged.ownerOf(namespace) === peer.name) {
      return { act: false, why: `member ${peer.name} has not yet let ${namespace} go`, owner: peer.name };
    }
  }
  return { act: true };
}
