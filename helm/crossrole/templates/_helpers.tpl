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

{{- define "crossrole.selectorLabels" -}}
app.kubernetes.io/name: crossrole
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "crossrole.labels" -}}
{{ include "crossrole.baseLabels" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
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
{{- if and .Values.serviceMonitor.enabled (not .Values.metrics.service.create) -}}
{{- fail "serviceMonitor.enabled needs metrics.service.create: true (the ServiceMonitor selects the metrics Service)" -}}
{{- end -}}
{{- end }}
