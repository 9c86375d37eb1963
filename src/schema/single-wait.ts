/**
 * One wait per GraphQL operation.
 *
 * `waitForVerdict` may hold its request for up to 300 s, and GraphQL runs a mutation's root fields
 * one after another, so an operation with several aliased waits
 * (`a: waitForVerdict(…) b: waitForVerdict(…) …`) would hold one connection for their sum: hours
 * with enough aliases. A validation rule refuses such an operation before anything runs, with
 * `query_too_complex`, on every face that executes client documents (HTTP, SSE, WebSocket).
 *
 * Fields are counted by response key through aliases, fragment spreads and inline fragments; the
 * same key twice is one execution (GraphQL merges it), so it counts once.
 */
import {
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { AppError } from '../errors/index.ts';

const WAIT_FIELD = 'waitForVerdict';

export function singleWaitRule(context: ValidationContext) {
  const waitKeys = (set: SelectionSetNode, keys: Set<string>, seen: Set<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === WAIT_FIELD)
          keys.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        waitKeys(selection.selectionSet, keys, seen);
      } else if (!seen.has(selection.name.value)) {
        // Fragment cycles are refused by their own rule; `seen` only keeps this walk finite.
        seen.add(selection.name.value);
        const fragment = context.getFragment(selection.name.value);
        if (fragment) waitKeys(fragment.selectionSet, keys, seen);
      }
    }
    return keys;
  };
  return {
    OperationDefinition(node: OperationDefinitionNode) {
      if (node.operation !== 'mutation') return;
      const keys = waitKeys(node.selectionSet, new Set(), new Set());
      if (keys.size <= 1) return;
      const message = `This operation exceeds the limit of one ${WAIT_FIELD} per operation (it has ${keys.size}): send one wait per request.`;
      context.reportError(
        new GraphQLError(message, {
          nodes: [node],
          originalError: new AppError('query_too_complex', message),
          extensions: { code: 'query_too_complex' },
        }),
      );
    },
  };
}
