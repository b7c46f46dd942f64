module github.com/pulumi-hosting/pulumi-hosting/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
