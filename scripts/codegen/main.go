// Command pulumi-hosting-codegen checks a Pulumi package schema and generates the language SDKs
// from it with Pulumi's own generators (github.com/pulumi/pulumi/pkg/v3/codegen at the CLI's
// version), without language hosts, plugins or network:
//
//	pulumi-hosting-codegen check [--strict] SCHEMA.json
//	pulumi-hosting-codegen sdk [--strict] python|go|nodejs SCHEMA.json OUTDIR
//	pulumi-hosting-codegen version
//
// check binds the schema (schema.BindSpec with the metaschema validation) and prints every
// diagnostic to stderr; it exits 1 when there is an error, or with --strict a warning. sdk does
// the same check, then replaces OUTDIR with the generated package. Exit status 2 is a usage error.
//
// The schema must be self-contained: a reference to another package's types fails with an error,
// because loading one would need that package's plugin.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

const tool = "pulumi-hosting-codegen"

// goSDKVersion is the github.com/pulumi/pulumi/sdk/v3 version the go.mod of a generated Go SDK
// requires when the generator writes none: the version of the generators themselves.
const goSDKVersion = "v3.259.0"

// goVersion is the go directive of that go.mod (sdk/v3 v3.259.0 needs Go 1.25).
const goVersion = "1.25"

var languages = []string{"go", "nodejs", "python"}

const usage = `usage:
  pulumi-hosting-codegen check [--strict] SCHEMA.json
  pulumi-hosting-codegen sdk [--strict] python|go|nodejs SCHEMA.json OUTDIR
  pulumi-hosting-codegen version

check   binds the schema and prints its diagnostics; exit 1 on an error (--strict: or a warning)
sdk     checks, then replaces OUTDIR with the SDK Pulumi's generator writes for LANGUAGE
`

// usageError is reported with the usage text and exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// failed means the diagnostics have been printed already: exit 1 without another message.
var errFailed = errors.New("failed")

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var u usageError
	switch {
	case err == nil:
	case errors.As(err, &u):
		fmt.Fprintf(os.Stderr, "%s: %s\n\n%s", tool, u.msg, usage)
		os.Exit(2)
	case errors.Is(err, errFailed):
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "%s: %v\n", tool, err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"no command"}
	}
	command, rest := args[0], args[1:]
	switch command {
	case "check":
		strict, operands, err := parseFlags(command, rest, 1)
		if err != nil {
			return err
		}
		pkg, err := load(operands[0], strict, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: package %s: %d resources, %d functions, %d config variables\n",
			operands[0], pkg.Name, len(pkg.Resources), len(pkg.Functions), len(pkg.Config))
		return nil
	case "sdk":
		strict, operands, err := parseFlags(command, rest, 3)
		if err != nil {
			return err
		}
		language, schemaPath, outDir := operands[0], operands[1], operands[2]
		if !contains(languages, language) {
			return usageError{fmt.Sprintf("unknown language %q (one of %s)", language, strings.Join(languages, ", "))}
		}
		pkg, err := load(schemaPath, strict, stderr)
		if err != nil {
			return err
		}
		files, err := generate(language, pkg)
		if err != nil {
			return fmt.Errorf("generating the %s SDK from %s: %w", language, schemaPath, err)
		}
		if err := writeTree(outDir, files); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s SDK of package %s: %d files in %s\n", schemaPath, language, pkg.Name, len(files), outDir)
		return nil
	case "version":
		fmt.Fprintf(stdout, "%s (github.com/pulumi/pulumi/pkg/v3 %s)\n", tool, pulumiVersion())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		return usageError{fmt.Sprintf("unknown command %q", command)}
	}
}

func parseFlags(command string, args []string, operands int) (bool, []string, error) {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	strict := fs.Bool("strict", false, "treat warnings as errors")
	if err := fs.Parse(args); err != nil {
		return false, nil, usageError{fmt.Sprintf("%s: %v", command, err)}
	}
	if fs.NArg() != operands {
		return false, nil, usageError{fmt.Sprintf("%s takes %d argument(s), got %d", command, operands, fs.NArg())}
	}
	return *strict, fs.Args(), nil
}

// load reads and binds a schema, printing its diagnostics. It fails after printing them when
// there is an error (or, strict, a warning).
func load(schemaPath string, strict bool, stderr io.Writer) (*schema.Package, error) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("%s: not a JSON package schema: %w", schemaPath, err)
	}

	pkg, diags, err := bind(spec)
	diags = append(diags, documentWarnings(data, diags)...)
	errorsSeen, warningsSeen := 0, 0
	printed := map[string]bool{}
	for _, d := range diags {
		line := formatDiagnostic(schemaPath, d)
		if printed[line] { // the binder reports some problems twice
			continue
		}
		printed[line] = true
		switch d.Severity {
		case hcl.DiagError:
			errorsSeen++
		case hcl.DiagWarning:
			warningsSeen++
		}
		fmt.Fprintln(stderr, line)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: binding failed: %w", schemaPath, err)
	}
	if errorsSeen > 0 || (strict && warningsSeen > 0) {
		fmt.Fprintf(stderr, "%s: %d error(s), %d warning(s)%s\n", schemaPath, errorsSeen, warningsSeen,
			map[bool]string{true: " (--strict: warnings fail)", false: ""}[strict && errorsSeen == 0])
		return nil, errFailed
	}
	return pkg, nil
}

// bind runs schema.BindSpec, turning a panic of the binder (its contract assertions) into an error.
func bind(spec schema.PackageSpec) (pkg *schema.Package, diags hcl.Diagnostics, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema binder failed: %v", r)
		}
	}()
	return schema.BindSpec(spec, offlineLoader{}, schema.ValidationOptions{})
}

// documentWarnings validates the document itself against the metaschema. The binder validates the
// spec after decoding it, when keys the metaschema does not know (a misspelt "secrets", say) are
// gone already; what only the document fails is reported as a warning (an error with --strict).
func documentWarnings(data []byte, bound hcl.Diagnostics) hcl.Diagnostics {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil
	}
	err := schema.MetaSchema.Validate(raw)
	var verr *jsonschema.ValidationError
	if err == nil || !errors.As(err, &verr) {
		return nil
	}
	seen := map[string]bool{}
	for _, d := range bound {
		seen[d.Summary] = true
	}
	var diags hcl.Diagnostics
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 && e.Message != "" {
			summary := "#" + e.InstanceLocation + ": " + e.Message
			if !seen[summary] {
				seen[summary] = true
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  summary,
					Detail:   "Pulumi ignores what its metaschema does not define",
				})
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(verr)
	return diags
}

func formatDiagnostic(file string, d *hcl.Diagnostic) string {
	severity := "error"
	if d.Severity == hcl.DiagWarning {
		severity = "warning"
	}
	where := file
	if d.Subject != nil && d.Subject.Start.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", file, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	line := fmt.Sprintf("%s: %s: %s", where, severity, d.Summary)
	if d.Detail != "" && d.Detail != d.Summary {
		line += ": " + d.Detail
	}
	return line
}

// offlineLoader is the loader for self-contained schemas: like schema.NewNullLoader, but a
// reference to another package is an error to report rather than a panic.
type offlineLoader struct{}

func (offlineLoader) refused(name string, version *semver.Version) error {
	v := ""
	if version != nil {
		v = "@" + version.String()
	}
	return fmt.Errorf("the schema refers to package %s%s; only self-contained schemas are supported "+
		"(loading another package needs its plugin)", name, v)
}

func (l offlineLoader) LoadPackage(name string, version *semver.Version) (*schema.Package, error) {
	return nil, l.refused(name, version)
}

func (l offlineLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refused(d.Name, d.Version)
}

func (l offlineLoader) LoadPackageReference(name string, version *semver.Version) (schema.PackageReference, error) {
	return nil, l.refused(name, version)
}

func (l offlineLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.refused(d.Name, d.Version)
}

// generate returns the files of the SDK, keyed by slash-separated paths relative to its root.
func generate(language string, pkg *schema.Package) (files map[string][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the generator failed: %v", r)
		}
	}()
	switch language {
	case "python":
		return python.GeneratePackage(tool, pkg, nil, offlineLoader{})
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, offlineLoader{})
	case "go":
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err != nil {
			return nil, err
		}
		if _, ok := files["go.mod"]; !ok {
			gomod, err := goMod(pkg)
			if err != nil {
				return nil, err
			}
			files["go.mod"] = gomod
		}
		return files, nil
	}
	return nil, fmt.Errorf("unknown language %q", language)
}

// goMod writes the go.mod the Go generator leaves out unless the schema sets meta.supportPack:
// the module is OUTDIR, its path the schema's language.go.importBasePath without the package's
// folder (as the generator itself derives it for support packs).
func goMod(pkg *schema.Package) ([]byte, error) {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	base := info.ImportBasePath
	if base == "" {
		base = gogen.ExtractImportBasePath(pkg.Reference())
	}
	folder := info.RootPackageName
	if folder == "" {
		folder = strings.ReplaceAll(pkg.Name, "-", "")
	}
	if path.Base(base) != folder || path.Dir(base) == "." {
		return nil, fmt.Errorf("language.go.importBasePath %q must be <module path>/%s: the generator writes "+
			"the package to the folder %s/ of the module", base, folder, folder)
	}
	module := info.ModulePath
	if module == "" {
		module = path.Dir(base)
	}
	return fmt.Appendf(nil, "module %s\n\ngo %s\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n",
		module, goVersion, goSDKVersion), nil
}

// writeTree replaces dir with exactly the given files, written in a sorted order, so that output
// is the same for the same schema. It is written beside dir first, so a failure leaves dir as it was.
func writeTree(dir string, files map[string][]byte) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := refuseToReplace(abs); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		clean := path.Clean(name)
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return fmt.Errorf("the generator produced a path outside the output folder: %q", name)
		}
		target := filepath.Join(tmp, filepath.FromSlash(clean))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(abs); err != nil {
		return fmt.Errorf("clearing %s: %w", dir, err)
	}
	return os.Rename(tmp, abs)
}

// refuseToReplace guards against replacing a folder that is obviously not an SDK folder.
func refuseToReplace(abs string) error {
	if abs == filepath.Dir(abs) {
		return fmt.Errorf("refusing to replace %s", abs)
	}
	if home, err := os.UserHomeDir(); err == nil && abs == filepath.Clean(home) {
		return fmt.Errorf("refusing to replace the home folder %s", abs)
	}
	if cwd, err := os.Getwd(); err == nil && (cwd == abs || strings.HasPrefix(cwd, abs+string(filepath.Separator))) {
		return fmt.Errorf("refusing to replace %s: it holds the current folder", abs)
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		return fmt.Errorf("refusing to replace %s: it is a git checkout", abs)
	}
	if info, err := os.Stat(abs); err == nil && !info.IsDir() {
		return fmt.Errorf("%s exists and is not a folder", abs)
	}
	return nil
}

// pulumiVersion is the version of the Pulumi generators built in.
func pulumiVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/pulumi/pulumi/pkg/v3" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
