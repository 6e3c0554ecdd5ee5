import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { canWriteAll, hasScope, subscriptionLapsed, type Actor } from '../domain/actor.ts';
import { CrmError } from '../domain/errors.ts';
import type { Scope } from '../domain/types.ts';
import type { GraphQLContext } from './context.ts';
import { JSONScalar } from './json-scalar.ts';

/**
 * The `tool: <scope>` check: the workspace's subscription is active (billing exempt) and the
 * key's scopes include the category; throws subscription_required or permission_denied. The
 * GraphQL fields check it as an auth scope, and every call style's tool call checks it first,
 * before its parameters are validated (gateway/tools/invoke.ts), so a key learns nothing about
 * a tool it may not call, not even what parameters it takes.
 */
export function assertToolAccess(actor: Pick<Actor, 'plan' | 'trial_ends_at' | 'scopes'>, scope: Scope): void {
  if (scope !== 'billing' && subscriptionLapsed(actor)) {
    throw new CrmError('subscription_required', `the workspace's trial ended on ${actor.trial_ends_at} and no plan is active; see billing.get`);
  }
  if (!hasScope(actor, scope)) {
    throw new CrmError('permission_denied', `this API key's scopes (${actor.scopes.join(', ')}) do not include "${scope}"`, {
      required_scope: scope, scopes: [...actor.scopes],
    });
  }
}

/**
 * The one Pothos builder. Authorization lives here, below every transport:
 * - `tool: <scope>`: the workspace's subscription is active (except for billing, which must stay
 *   readable to fix it) and the API key's scopes include the category.
 * - `writer`: the user is an Owner or Admin.
 * - `owner`: the user is the workspace Owner and the key has no scopes, i.e. all tools
 *   (workspace settings: keys, members, plan).
 * Scope loaders throw CrmError so the caller gets the precise code; `unauthorizedError` re-throws
 * the first one instead of Pothos' generic message.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { tool: Scope; writer: boolean; owner: boolean };
  DefaultAuthStrategy: 'all';
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    defaultStrategy: 'all',
    treatErrorsAsUnauthorized: true,
    unauthorizedError: (_parent, _context, _info, result) => {
      throwFirstError(result.failure);
      return new CrmError('permission_denied', result.message);
    },
    authScopes: (ctx) => ({
      tool: (scope: Scope) => {
        assertToolAccess(ctx.actor, scope);
        return true;
      },
      writer: () => {
        if (!canWriteAll(ctx.actor)) {
          throw new CrmError('permission_denied', `the ${ctx.actor.role} role cannot change the data model; an owner or admin can`, { role: ctx.actor.role });
        }
        return true;
      },
      owner: () => {
        if (ctx.actor.role !== 'owner') {
          throw new CrmError('permission_denied', `only the workspace owner may change workspace settings`, { role: ctx.actor.role });
        }
        // A key limited to some tools must not reach what it is limited by: it could mint itself an
        // unscoped key, or change members and the plan. Settings take a key without scopes.
        if (ctx.actor.scopes.length > 0) {
          throw new CrmError('permission_denied', `workspace settings need an Owner's key without scopes (all tools); this key's scopes are ${ctx.actor.scopes.join(', ')}`, {
            role: ctx.actor.role, scopes: [...ctx.actor.scopes],
          });
        }
        return true;
      },
    }),
  },
});

function throwFirstError(failure: AuthFailure): void {
  if ('error' in failure && failure.error) throw failure.error;
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const child of failure.failures) throwFirstError(child);
  }
}

builder.addScalarType('JSON', JSONScalar);
builder.queryType({});
builder.mutationType({});
