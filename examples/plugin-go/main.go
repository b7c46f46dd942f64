// Four families of the hosting plugin from Go. Against the sandbox server:
//
//	npx hosting-emulator --port 3878 &
//	pulumi config set hosting:baseUrl http://127.0.0.1:3878
//	pulumi config set --secret hosting:token svcp_siteadmin
//	pulumi config set --secret hookSecret s3cr3t
//	pulumi up
package main

import (
	"github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		org := cfg.Get("org")
		if org == "" {
			org = "acme-eng"
		}
		hookURL := cfg.Get("hookUrl")
		if hookURL == "" {
			hookURL = "https://ci.example.com/go"
		}

		// A repository webhook whose secret the API masks: kept from state, never a perpetual diff.
		hook, err := hosting.NewRepositoryWebhook(ctx, "api-ci-hook", &hosting.RepositoryWebhookArgs{
			Owner:      pulumi.String(org),
			Repository: pulumi.String("api"),
			Url:        pulumi.String(hookURL),
			Secret:     cfg.RequireSecret("hookSecret"),
			Events:     pulumi.ToStringArray([]string{"push", "pull_request"}),
		})
		if err != nil {
			return err
		}

		// A runner group and, authoritatively, the runners in it.
		builders, err := hosting.NewOrgRunnerGroup(ctx, "go-builders", &hosting.OrgRunnerGroupArgs{
			Org:        pulumi.String(org),
			Name:       pulumi.String("go-builders"),
			Visibility: pulumi.String("all"),
		})
		if err != nil {
			return err
		}
		runners := []int{1, 2}
		if err := cfg.TryObject("runners", &runners); err != nil && cfg.Get("runners") != "" {
			return err
		}
		if _, err := hosting.NewRunnerGroupRunners(ctx, "go-builders-runners", &hosting.RunnerGroupRunnersArgs{
			Org:           pulumi.String(org),
			RunnerGroupId: builders.RunnerGroupId,
			Runners:       pulumi.ToIntArray(runners),
		}); err != nil {
			return err
		}

		// mona is invited; destroying the stack removes her (or cancels the invitation).
		membership, err := hosting.NewOrgMembership(ctx, "acme-eng-mona", &hosting.OrgMembershipArgs{
			Org:      pulumi.String(org),
			Username: pulumi.String("mona"),
			Role:     pulumi.String("member"),
		})
		if err != nil {
			return err
		}

		// An organisation's monthly Actions budget, alerting and never stopping CI.
		amount := cfg.GetInt("budget")
		if amount == 0 {
			amount = 500
		}
		budget, err := hosting.NewBudget(ctx, "acme-eng-actions", &hosting.BudgetArgs{
			Enterprise:          pulumi.String("acme"),
			Scope:               pulumi.String("organization"),
			EntityName:          pulumi.String(org),
			Type:                pulumi.String("ProductPricing"),
			ProductSku:          pulumi.String("actions"),
			Amount:              pulumi.Int(amount),
			PreventFurtherUsage: pulumi.Bool(false),
			Alerting: &hosting.BudgetAlertingArgs{
				WillAlert:  pulumi.Bool(true),
				Recipients: pulumi.ToStringArray([]string{"billie", "admin"}),
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("hookId", hook.HookId)
		ctx.Export("runnerGroupId", builders.RunnerGroupId)
		ctx.Export("membershipState", membership.State)
		ctx.Export("budgetId", budget.BudgetId)
		return nil
	})
}
