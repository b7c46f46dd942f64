// Organisation settings of a self-managed source-code hosting platform: webhooks, runner groups, budgets, memberships, private registries, custom property values, deployment protection rules, organisations, issue types and fields, blocks and user keys.
package hosting
