package io.gpuforge.hypervisor.proxmox;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Checks one request against the contract the way PVE's parameter check does: unknown parameter,
 * missing required parameter, wrong type ({@code integer}, {@code number}, {@code boolean} as 0/1),
 * value outside the enum. The result is PVE's per-parameter {@code errors} map (empty = fine).
 */
public final class ContractValidator {

    private static final Pattern INTEGER = Pattern.compile("-?\\d+");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    private ContractValidator() {
    }

    /** @param params every parameter as sent (path variables included), multi-valued for arrays */
    public static Map<String, String> check(PveContract.Endpoint e, Map<String, List<String>> params) {
        Map<String, String> errors = new TreeMap<>();
        params.forEach((name, values) -> {
            var p = e.param(name);
            if (p.isEmpty()) {
                errors.put(name, "property is not defined in schema and the schema does not allow additional properties");
                return;
            }
            if (!p.get().type().equals("array") && values.size() > 1) {
                errors.put(name, "property is given more than once");
                return;
            }
            for (String v : values) {
                String problem = typeProblem(p.get(), v);
                if (problem != null) {
                    errors.put(name, problem);
                    return;
                }
            }
        });
        e.parameters().forEach((name, p) -> {
            if (p.required() && !name.endsWith("[n]") && !params.containsKey(name)) {
                errors.put(name, "property is missing and it is not optional");
            }
        });
        return errors;
    }

    private static String typeProblem(PveContract.Param p, String v) {
        switch (p.type()) {
            case "integer":
                if (!INTEGER.matcher(v).matches()) {
                    return "type check ('integer') failed - got '" + v + "'";
                }
                break;
            case "number":
                if (!NUMBER.matcher(v).matches()) {
                    return "type check ('number') failed - got '" + v + "'";
                }
                break;
            case "boolean":
                if (!(v.equals("0") || v.equals("1") || v.equals("true") || v.equals("false") || v.equals("yes")
                        || v.equals("no") || v.equals("on") || v.equals("off"))) {
                    return "type check ('boolean') failed - got '" + v + "'";
                }
                break;
            default:
                break;
        }
        if (!p.enumValues().isEmpty() && !p.enumValues().contains(v)) {
            return "value '" + v + "' does not have a value in the enumeration '" + String.join(", ", p.enumValues()) + "'";
        }
        return null;
    }
}
