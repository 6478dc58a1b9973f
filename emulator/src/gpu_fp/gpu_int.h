// The integer results of a GPU's arithmetic in device code (gpu_int.cpp), for the plugin's passes
// (gpu_fp_plugin.cpp). Needs g++'s plugin headers included first.
#pragma once

// Rewrites the statement at GSI if it converts a floating-point value to an integer, divides
// integers or shifts by a count that is not a constant; GSI ends at the last new statement.
void gpu_integer_statement(gimple_stmt_iterator* gsi);

// abs of a signed integer in a device function's body (trees before gimplification) wraps.
void gpu_integer_abs(tree* body);
