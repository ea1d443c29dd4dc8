package io.gpuforge.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A task log or cost report opened in a spreadsheet runs nothing: every cell that starts with one of OWASP's formula
 * characters ({@code = + - @}, tab, carriage return) is written as text. A tab or a carriage return first used to pass,
 * and some spreadsheets strip them and read the formula behind.
 */
class CsvCellTest {

    @ParameterizedTest
    @ValueSource(strings = {"=1+2", "+1+2", "-1+2", "@SUM(A1:A9)", "\t=1+2", "\r=1+2", "=cmd|' /C calc'!A0"})
    void aCellThatAStartsLikeAFormulaIsText(String v) {
        String cell = CsvCell.of(v);
        String unquoted = cell.startsWith("\"") ? cell.substring(1, cell.length() - 1).replace("\"\"", "\"") : cell;
        assertThat(unquoted).isEqualTo("'" + v);
    }

    @Test
    void numbersAndPlainTextStayAsTheyAre() {
        assertThat(CsvCell.of("-42")).isEqualTo("-42");
        assertThat(CsvCell.of("-3.5")).isEqualTo("-3.5");
        assertThat(CsvCell.of("train-01")).isEqualTo("train-01");
        assertThat(CsvCell.of("")).isEmpty();
        assertThat(CsvCell.of("a,b")).isEqualTo("\"a,b\"");
        assertThat(CsvCell.of("\r=1+2")).isEqualTo("\"'\r=1+2\"");
    }
}
