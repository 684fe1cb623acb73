{{- /* Hand-written helpers. The RBAC names and base labels come from _generated.tpl (src/deploy/rbac.ts). */}}

{{- /* The controller's namespace: systemNamespace, else the release namespace. */}}
{{- define "crossrole.systemNamespace" -}}
{{- .Values.systemNamespace | default .Release.Namespace -}}
{{- end }}

{{- define "crossrole.serviceAccountName" -}}
{{- .Values.serviceAccount.name -}}
{{- end }}

{{- /* The namespaces to reconcile, as a JSON list: empty with installScope cluster; with
installScope namespace, watchNamespace (a list or a comma-separated string; trimmed, duplicates
dropped, as `crossrole run --watch-namespace` reads it), else the release namespace. */}}
{{- define "crossrole.watchNamespaces" -}}
{{- $list := list -}}
{{- if eq .Values.installScope "namespace" -}}
{{- $raw := .Values.watchNamespace | default list -}}
{{- if kindIs "string" $raw -}}
{{- $raw = splitList "," $raw -}}
{{- end -}}
{{- range $raw -}}
{{- $ns := trim . -}}
{{- if and $ns (not (has $ns $list)) -}}
{{- $list = append $list $ns -}}
{{- end -}}
{{- end -}}
{{- if not $list -}}
{{- $list = list .Release.Namespace -}}
{{- end -}}
{{- end -}}
{{- toJson $list -}}
{{- end }}

{{- /* ACK's nameOverride: the app.kubernetes.io/name label (crossrole unless overridden). */}}
{{- define "crossrole.name" -}}
{{- .Values.nameOverride | default "crossrole" | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- /* The name of the Deployment, metrics Service and ServiceMonitor: fullnameOverride, else with a
nameOverride ACK's rule (<release>-<name>, or the release name when it contains the name), else
crossrole (stable whatever the release is called; the RBAC names are rbac.ts's). */}}
{{- define "crossrole.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if .Values.nameOverride -}}
{{- if contains .Values.nameOverride .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- else -}}
crossrole
{{- end -}}
{{- end }}

{{- define "crossrole.selectorLabels" -}}
app.kubernetes.io/name: {{ include "crossrole.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "crossrole.labels" -}}
{{- $base := include "crossrole.baseLabels" . | fromYaml -}}
{{- $_ := set $base "app.kubernetes.io/name" (include "crossrole.name" .) -}}
{{ toYaml $base }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end }}

{{- /* ACK's role.labels on the ClusterRole and Roles; crossrole's own labels win. */}}
{{- define "crossrole.roleLabels" -}}
{{- mergeOverwrite (dict) .Values.role.labels (include "crossrole.labels" . | fromYaml) | toYaml -}}
{{- end }}

{{- /* reconcile.resources: the kinds crossrole serves among them, as a JSON list (empty: all). */}}
{{- define "crossrole.reconcileKinds" -}}
{{- $served := include "crossrole.servedKinds" . | splitList "," -}}
{{- $list := list -}}
{{- range .Values.reconcile.resources | default list -}}
{{- if and (has . $served) (not (has . $list)) -}}
{{- $list = append $list . -}}
{{- end -}}
{{- end -}}
{{- toJson $list -}}
{{- end }}

{{- /* reconcile.resources: ACK's kinds crossrole does not serve, as a JSON list. */}}
{{- define "crossrole.unservedKinds" -}}
{{- $served := include "crossrole.servedKinds" . | splitList "," -}}
{{- $list := list -}}
{{- range .Values.reconcile.resources | default list -}}
{{- if not (has . $served) -}}
{{- $list = append $list . -}}
{{- end -}}
{{- end -}}
{{- toJson $list -}}
{{- end }}

{{- /* The keys of reconcile's per-kind maps that name kinds crossrole does not serve, as a JSON list. */}}
{{- define "crossrole.unservedPerKindKeys" -}}
{{- $served := include "crossrole.servedKinds" . | splitList "," -}}
{{- $list := list -}}
{{- range $map := list .Values.reconcile.resourceResyncPeriods .Values.reconcile.resourceMaxConcurrentSyncs -}}
{{- range $kind, $_ := $map -}}
{{- if and (not (has $kind $served)) (not (has $kind $list)) -}}
{{- $list = append $list $kind -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson (sortAlpha $list) -}}
{{- end }}

{{- /* Non-empty when image.repository is ACK's controller image (an ACK values file unchanged). */}}
{{- define "crossrole.ackImage" -}}
{{- if contains "aws-controllers-k8s/" .Values.image.repository -}}yes{{- end -}}
{{- end }}

{{- /* Checks across values that the schema cannot say clearly; each failure names the values
and the fix. */}}
{{- define "crossrole.validate" -}}
{{- $sys := include "crossrole.systemNamespace" . -}}
{{- $watch := .Values.watchNamespace | default list -}}
{{- if and (eq .Values.installScope "cluster") (kindIs "string" $watch) (trim $watch) -}}
{{- fail (printf "watchNamespace %q is used only with installScope: namespace; with installScope: cluster the controller reconciles every namespace (set installScope: namespace, or watchNamespace: [])" $watch) -}}
{{- end -}}
{{- if and (eq .Values.installScope "cluster") (kindIs "slice" $watch) $watch -}}
{{- fail (printf "watchNamespace %v is used only with installScope: namespace; with installScope: cluster the controller reconciles every namespace (set installScope: namespace, or watchNamespace: [])" $watch) -}}
{{- end -}}
{{- if and .Values.featureGates.IAMRoleSelector .Values.enableCARM -}}
{{- fail "featureGates.IAMRoleSelector: true cannot be combined with enableCARM: true: IAMRoleSelector mode replaces CARM; set enableCARM: false or turn the gate off" -}}
{{- end -}}
{{- if and .Values.leaderElection.namespace (ne .Values.leaderElection.namespace $sys) -}}
{{- fail (printf "leaderElection.namespace %q: the controller's Lease lives in its system namespace %q (its RBAC grants Leases only there); leave leaderElection.namespace empty" .Values.leaderElection.namespace $sys) -}}
{{- end -}}
{{- if and (gt (int .Values.deployment.replicas) 1) (not .Values.leaderElection.enabled) -}}
{{- fail (printf "deployment.replicas %v needs leaderElection.enabled: true (two controllers without a leader would reconcile the same resources)" .Values.deployment.replicas) -}}
{{- end -}}
{{- if and .Values.reconcile.resources (not (include "crossrole.reconcileKinds" . | fromJsonArray)) -}}
{{- fail (printf "reconcile.resources %v names no kind crossrole serves (%s): nothing would be reconciled; list some of those, or leave it empty for all" .Values.reconcile.resources (include "crossrole.servedKinds" . | splitList "," | join ", ")) -}}
{{- end -}}
{{- if and .Values.serviceMonitor.enabled (not .Values.metrics.service.create) -}}
{{- fail "serviceMonitor.enabled needs metrics.service.create: true (the ServiceMonitor selects the metrics Service)" -}}
{{- end -}}
{{- end }}

{{- /* A memory quantity ("128Mi", "1Gi", "500M", "268435456") in MiB, rounded down. */}}
{{- define "crossrole.mebibytes" -}}
{{- $q := toString . -}}
{{- $n := regexFind "^[0-9]+" $q | default "0" | atoi -}}
{{- $unit := trimPrefix (regexFind "^[0-9]+" $q) $q -}}
{{- if eq $unit "Ki" }}{{ div $n 1024 }}
{{- else if eq $unit "Mi" }}{{ $n }}
{{- else if eq $unit "Gi" }}{{ mul $n 1024 }}
{{- else if eq $unit "Ti" }}{{ mul $n 1048576 }}
{{- else if eq $unit "k" }}{{ div (mul $n 1000) 1048576 }}
{{- else if eq $unit "M" }}{{ div (mul $n 1000000) 1048576 }}
{{- else if eq $unit "G" }}{{ div (mul $n 1000000000) 1048576 }}
{{- else }}{{ div $n 1048576 }}
{{- end -}}
{{- end }}

{{- /* The memory limit's floor in MiB: 256, or 128 plus 26 KiB per expected resource. */}}
{{- define "crossrole.memoryFloorMiB" -}}
{{- max 256 (add 128 (div (mul (int (.Values.expectedResources | default 1000)) 26) 1024)) -}}
{{- end }}

{{- /* The container's resources: as given, with a memory limit below the floor raised to it. */}}
{{- define "crossrole.resources" -}}
{{- $res := deepCopy (.Values.resources | default dict) -}}
{{- $limits := get $res "limits" | default dict -}}
{{- if hasKey $limits "memory" -}}
{{- $floor := include "crossrole.memoryFloorMiB" . | atoi -}}
{{- if lt (include "crossrole.mebibytes" $limits.memory | atoi) $floor -}}
{{- $_ := set $limits "memory" (printf "%dMi" $floor) -}}
{{- $_ := set $res "limits" $limits -}}
{{- end -}}
{{- end -}}
{{- toYaml $res -}}
{{- end }}
